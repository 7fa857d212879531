/**
 * The passkey JSON routes (docs/auth.md "Passkeys"):
 *   POST   /api/auth/passkeys/registration/options    (signed in) {password?} → creation options (PublicKeyCredentialCreationOptionsJSON);
 *                                                     403 unless the address is verified and the user re-authenticated (./adding-rules.ts)
 *   POST   /api/auth/passkeys/registration/verify     (signed in) {response, name?} → 201 the new passkey
 *   POST   /api/auth/passkeys/authentication/options  → request options (PublicKeyCredentialRequestOptionsJSON)
 *   POST   /api/auth/passkeys/authentication/verify   {response, next?} → signed in (aal2), session cookie
 *   GET    /api/auth/passkeys                         (signed in) → { passkeys: [...] }
 *   PATCH  /api/auth/passkeys/:id                     (signed in) {name} → the renamed passkey
 *   DELETE /api/auth/passkeys/:id                     (signed in) {password?} → 204; re-authenticated, and only while another way in remains (409)
 *   POST   /api/auth/passkey-removal                  {token, passkeys} (a removal link, no session) → { removed }; a form: 303 to /login
 * Every write passes the same Origin / Sec-Fetch-Site check as the other auth routes and takes
 * JSON only; the sign-in routes count against the per-client attempt limit. Without
 * AUTH_PUBLIC_BASE_URL (no relying party) the ceremony routes answer 404.
 */
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { errorResponse } from '../../http/errors.ts';
import * as v from 'valibot';
import { AppError } from '../../errors.ts';
import { clientAddress } from '../../http/client-address.ts';
import { revokePreviousSession, safeNextPath, sessionIdFromCookieHeader, throttle, type AuthDeps } from '../application/index.ts';
import { deviceHint } from '../domain/device-hint.ts';
import { PASSWORD_MAX_INPUT_UNITS } from '../domain/password-policy.ts';
import { authenticationOptions, signInWithPasskey } from './authentication.ts';
import { listPasskeys, passkeySummary, renamePasskey } from './manage.ts';
import { removeSignInMethod } from '../application/sign-in-method-removal.ts';
import { providerLabelOf, ReauthPasswordSchema, reauthOf } from '../rest/sign-in-method-routes.ts';
import { MAX_PASSKEY_NAME_LENGTH, MAX_PASSKEYS_PER_USER } from './passkey-list.ts';
import { removePasskeysWithLink } from './removal-link.ts';
import { MailLinkTokenSchema } from '../application/mail-links.ts';
import { formOrJson } from '../rest/form-or-json.ts';
import { signedInSession } from '../rest/require-session.ts';
import { registerPasskey, registrationOptions } from './registration.ts';
import { AuthenticationResponseSchema, PASSKEY_MAX_BODY_BYTES, RegistrationResponseSchema } from './response-json.ts';

export const PASSKEY_PATHS = {
  registrationOptions: '/api/auth/passkeys/registration/options',
  registrationVerify: '/api/auth/passkeys/registration/verify',
  authenticationOptions: '/api/auth/passkeys/authentication/options',
  authenticationVerify: '/api/auth/passkeys/authentication/verify',
  list: '/api/auth/passkeys',
  // Beside the passkeys' paths, not under them: `/api/auth/passkeys/:id` would take it.
  removal: '/api/auth/passkey-removal',
  item: '/api/auth/passkeys/:id',
} as const;

/** Bodies the routes take; also what the OpenAPI document publishes. */
export const PasskeyRegistrationOptionsBodySchema = v.object(
  {
    password: v.optional(
      v.pipe(
        v.string('password must be a string'),
        v.maxLength(PASSWORD_MAX_INPUT_UNITS, 'password is too long'),
        v.description('the account password (re-authentication); leave it out only right after a provider or passkey sign-in (at most 5 minutes old)'),
      ),
    ),
  },
  'body must be a JSON object, with the string "password" when the account has one',
);
export const PasskeyRegistrationBodySchema = v.object(
  { response: RegistrationResponseSchema, name: v.optional(v.pipe(v.string('name must be a string'), v.maxLength(256, 'name is too long'))) },
  'body must be a JSON object with "response", the credential as PublicKeyCredential.toJSON() gives it',
);
export const PasskeyAuthenticationBodySchema = v.object(
  { response: AuthenticationResponseSchema, next: v.optional(v.string()) },
  'body must be a JSON object with "response", the credential as PublicKeyCredential.toJSON() gives it',
);
export const PasskeyRemovalReauthBodySchema = v.object({ password: ReauthPasswordSchema }, 'body must be a JSON object, with the string "password" when the account has one');
export const PasskeyRenameBodySchema = v.object(
  { name: v.pipe(v.string('name must be a string'), v.maxLength(256, 'name is too long'), v.description(`at most ${MAX_PASSKEY_NAME_LENGTH} characters are kept; not empty`)) },
  'body must be a JSON object with a string "name"',
);
/** Passkey ids are the SHA-256 (hex) of the credential id. */
const PasskeyId = v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/));
export const PasskeyRemovalBodySchema = v.object(
  {
    token: v.pipe(MailLinkTokenSchema, v.description('the `token` query parameter of the removal link\'s address (the "passkey added" mail\'s, or the page a reset leads to)')),
    passkeys: v.pipe(
      v.array(v.pipe(v.string(), v.maxLength(64)), 'passkeys must be a list of passkey ids'),
      v.maxLength(MAX_PASSKEYS_PER_USER, 'too many passkey ids'),
      v.description("ids of the passkeys to remove (a form: one `passkey` field each); ids not of the link's account are ignored"),
    ),
  },
  'body must be a JSON object with string "token" and the list "passkeys"',
);

const NO_STORE = { 'Cache-Control': 'no-store' };

async function jsonBody<S extends v.GenericSchema>(c: Context, schema: S): Promise<v.InferOutput<S>> {
  const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') throw new AppError('unsupported_media_type', 'send application/json');
  let body: unknown;
  try {
    body = await c.req.json();
  } catch (error) {
    throw new AppError('validation', 'request body is not valid JSON', { cause: error });
  }
  const result = v.safeParse(schema, body);
  if (!result.success) throw new AppError('validation', result.issues[0]?.message ?? 'invalid body');
  return result.output;
}

/** A JSON body, or none at all (an empty body is `{}`). */
async function optionalJsonBody<S extends v.GenericSchema>(c: Context, schema: S): Promise<v.InferOutput<S>> {
  const text = await c.req.text();
  if (text.trim() === '') {
    const empty = v.safeParse(schema, {});
    if (empty.success) return empty.output;
  }
  const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') throw new AppError('unsupported_media_type', 'send application/json');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new AppError('validation', 'request body is not valid JSON', { cause: error });
  }
  const result = v.safeParse(schema, body);
  if (!result.success) throw new AppError('validation', result.issues[0]?.message ?? 'invalid body');
  return result.output;
}

/** The removal page's form: `token` and one `passkey` field per ticked passkey. */
async function removalForm(c: Context): Promise<v.InferOutput<typeof PasskeyRemovalBodySchema>> {
  let fields: Record<string, string | File | (string | File)[]>;
  try {
    fields = await c.req.parseBody({ all: true });
  } catch (error) {
    throw new AppError('validation', 'request body is not a valid form', { cause: error });
  }
  const ticked = fields['passkey'];
  const passkeys = (Array.isArray(ticked) ? ticked : ticked === undefined ? [] : [ticked]).filter((value): value is string => typeof value === 'string');
  const result = v.safeParse(PasskeyRemovalBodySchema, { token: fields['token'], passkeys });
  if (!result.success) throw new AppError('validation', result.issues[0]?.message ?? 'invalid form');
  return result.output;
}

export function passkeyRoutes(deps: AuthDeps, guards: { sameSite: MiddlewareHandler }): Hono {
  const app = new Hono();
  const { logger } = deps.platform;
  const { config } = deps;
  // A credential with its attestation is larger than the 16 KiB of the password routes.
  const limit = bodyLimit({ maxSize: PASSKEY_MAX_BODY_BYTES, onError: (c) => errorResponse(c, new AppError('payload_too_large', 'request body exceeds 48 KiB'), logger) });
  const write = [limit, guards.sameSite] as const;
  const signedIn = (c: Context) => signedInSession(deps, c.req.raw.headers);
  const client = (c: Context) => clientAddress(c.req.raw.headers, config.clientAddressTrusted);

  app.post(PASSKEY_PATHS.registrationOptions, ...write, async (c) => {
    const session = await signedIn(c);
    const body = await optionalJsonBody(c, PasskeyRegistrationOptionsBodySchema);
    return c.json(await registrationOptions(deps, session, { password: body.password, client: client(c) }), 200, NO_STORE);
  });

  app.post(PASSKEY_PATHS.registrationVerify, ...write, async (c) => {
    const session = await signedIn(c);
    const body = await jsonBody(c, PasskeyRegistrationBodySchema);
    const passkey = await registerPasskey(deps, session, { response: body.response, name: body.name, fallbackName: deviceHint(c.req.header('user-agent')) });
    logger.log('info', 'passkey registered', { code: 'auth_passkey_registered', user_id: session.userId, passkey_id: passkey.passkey_id });
    return c.json(passkeySummary(deps, passkey), 201, NO_STORE);
  });

  app.post(PASSKEY_PATHS.authenticationOptions, ...write, async (c) => {
    await throttle(deps, 'login', client(c));
    return c.json(await authenticationOptions(deps), 200, NO_STORE);
  });

  app.post(PASSKEY_PATHS.authenticationVerify, ...write, async (c) => {
    await throttle(deps, 'login', client(c));
    const body = await jsonBody(c, PasskeyAuthenticationBodySchema);
    const signedInWith = await signInWithPasskey(deps, body.response, deviceHint(c.req.header('user-agent')));
    // Session fixation: the session this browser held before ends with the new sign-in.
    await revokePreviousSession(deps, sessionIdFromCookieHeader(c.req.header('cookie'), config.cookieSecure));
    logger.log('info', 'signed in with a passkey', { code: 'auth_passkey_login', user_id: signedInWith.userId, passkey_id: signedInWith.passkeyId });
    c.header('Set-Cookie', signedInWith.session.setCookie);
    return c.json(
      {
        authenticated: true,
        user_id: signedInWith.userId,
        email: signedInWith.email,
        aal: 'aal2',
        expires_at: new Date(signedInWith.session.expiresAt).toISOString(),
        next: safeNextPath(body.next),
      },
      200,
      NO_STORE,
    );
  });

  app.get(PASSKEY_PATHS.list, async (c) => c.json({ passkeys: listPasskeys(deps, (await signedIn(c)).userId) }, 200, NO_STORE));

  const passkeyId = (c: Context) => {
    const id = v.safeParse(PasskeyId, c.req.param('id'));
    if (!id.success) throw new AppError('not_found', 'no such passkey');
    return id.output;
  };

  app.patch(PASSKEY_PATHS.item, ...write, async (c) => {
    const session = await signedIn(c);
    const id = passkeyId(c);
    const body = await jsonBody(c, PasskeyRenameBodySchema);
    const renamed = renamePasskey(deps, session.userId, id, body.name);
    logger.log('info', 'passkey renamed', { code: 'auth_passkey_renamed', user_id: session.userId, passkey_id: id });
    return c.json(renamed, 200, NO_STORE);
  });

  // A removal link's form (its page, /remove-passkeys) or JSON: no session, the link is the proof.
  app.post(
    PASSKEY_PATHS.removal,
    ...write,
    formOrJson(deps).anyone({ path: '/remove-passkeys', form: 'remove' }, async (c, call) => {
      if (!config.mail) throw new AppError('not_found', 'mail is not configured on this service');
      const body = call.mode === 'form' ? await removalForm(c) : await jsonBody(c, PasskeyRemovalBodySchema);
      call.keep({ token: body.token });
      const done = await removePasskeysWithLink(deps, body.token, body.passkeys);
      return { json: { removed: done.removed }, see: '/login?notice=passkeys_removed' };
    }),
  );

  // Only while another way in remains, after re-authentication (src/auth/application/sign-in-method-removal.ts).
  app.delete(PASSKEY_PATHS.item, ...write, async (c) => {
    const session = await signedIn(c);
    const id = passkeyId(c);
    const body = await optionalJsonBody(c, PasskeyRemovalReauthBodySchema);
    await removeSignInMethod(deps, session, { kind: 'passkey', id }, reauthOf(c, deps, body.password), providerLabelOf(deps));
    logger.log('info', 'passkey removed', { code: 'auth_passkey_removed', user_id: session.userId, passkey_id: id });
    return c.body(null, 204, NO_STORE);
  });
  return app;
}
