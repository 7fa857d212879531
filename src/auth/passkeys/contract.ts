/**
 * The operations of the passkey routes (routes.ts) and the schemas they name, for the API document
 * (src/openapi/ assembles them). Each answer's schema is checked against its TypeScript type.
 */
import * as v from 'valibot';
import type { ApiContract, OperationSpec, ParameterSpec } from '../../http/operation.ts';
import { FORM_OR_NONE, SESSION_WRITE, timestamp } from '../operation-words.ts';
import { PasskeySchema } from './passkey-schema.ts';
import {
  PASSKEY_PATHS,
  PasskeyAuthenticationBodySchema,
  PasskeyRegistrationBodySchema,
  PasskeyRegistrationOptionsBodySchema,
  PasskeyRemovalBodySchema,
  PasskeyRemovalReauthBodySchema,
  PasskeyRenameBodySchema,
} from './routes.ts';

const JSON_ONLY = ['application/json'] as const;

const PasskeyListSchema = v.object({ passkeys: v.array(PasskeySchema) });
/** WebAuthn options as the browser's `PublicKeyCredential.parseCreationOptionsFromJSON()` / `parseRequestOptionsFromJSON()` take them (WebAuthn Level 3). */
const PasskeyCreationOptionsSchema = v.pipe(
  v.looseObject({ rp: v.looseObject({ id: v.optional(v.string()), name: v.string() }), user: v.looseObject({ id: v.string(), name: v.string() }), challenge: v.string() }),
  v.description('PublicKeyCredentialCreationOptionsJSON: discoverable credential and user verification required, attestation none'),
);
const PasskeyRequestOptionsSchema = v.pipe(
  v.looseObject({ rpId: v.optional(v.string()), challenge: v.string(), userVerification: v.optional(v.string()) }),
  v.description('PublicKeyCredentialRequestOptionsJSON: no allowCredentials (discoverable credentials), user verification required'),
);
const PasskeySignedInSchema = v.object({
  authenticated: v.literal(true),
  user_id: v.string(),
  email: v.nullable(v.string()),
  aal: v.literal('aal2'),
  expires_at: timestamp('RFC 3339, UTC'),
  next: v.pipe(v.string(), v.description('the same-site path to go to, from the request (else /dashboard)')),
});

/** The passkey ceremonies: 404 when passkeys are not offered (no AUTH_PUBLIC_BASE_URL), 401 for any refused response. */
const PASSKEY_CEREMONY = ['validation', 'invalid_credentials', 'forbidden', 'not_found', 'payload_too_large', 'unsupported_media_type', 'store', 'internal'] as const;
const PASSKEY_REFUSALS =
  'Every refused response answers 401 `invalid_credentials` with one message, whichever check failed (challenge unknown, expired, used or for another ceremony; origin; RP ID hash; user presence or verification; signature; counter; user handle; unknown or removed credential); the log says which.';
const PASSKEY_ID: ParameterSpec = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'a passkey id from the list (`id`): SHA-256 of the credential id, hex',
  schema: v.string(),
};

const OPERATIONS: readonly OperationSpec[] = [
  {
    method: 'post',
    path: PASSKEY_PATHS.registrationOptions,
    operationId: 'passkeyRegistrationOptions',
    tag: 'auth',
    summary: 'Start adding a passkey to your account',
    security: 'session',
    description: `${FORM_OR_NONE} Adding a passkey needs an account whose own address is verified (else 403 \`forbidden\`, "confirm your email address first") and re-authentication: \`password\`, the account password (a wrong one: 403, counted like a failed login, 429 past the limit), or no password right after a provider or passkey sign-in at most 5 minutes old (else 403). Then a new challenge, single use, valid 5 minutes, bound to this account. Pass the answer to \`navigator.credentials.create()\` (e.g. with \`PublicKeyCredential.parseCreationOptionsFromJSON\`). Each passkey added is told to the account's address by mail, with a link to remove it.`,
    body: { schema: 'PasskeyRegistrationOptionsBody', parsedWith: PasskeyRegistrationOptionsBodySchema, mediaTypes: JSON_ONLY, required: false },
    success: { '200': { kind: 'json', schema: 'PasskeyCreationOptions', description: 'creation options (WebAuthn Level 3 §5.4)' } },
    errors: ['validation', 'unauthorized', 'forbidden', 'not_found', 'domain', 'rate_limited', 'payload_too_large', 'unsupported_media_type', 'store', 'internal'],
    links: { VerifyRegistration: { operationId: 'passkeyRegistrationVerify', description: 'send the credential the browser created' } },
  },
  {
    method: 'post',
    path: PASSKEY_PATHS.registrationVerify,
    operationId: 'passkeyRegistrationVerify',
    tag: 'auth',
    summary: 'Add the passkey the browser created',
    security: 'session',
    description: `${FORM_OR_NONE} ${PASSKEY_REFUSALS} A credential already registered answers 409; an account keeps at most 20 passkeys (409 \`domain\`); an account whose address is unverified: 403. The account's address is mailed "A passkey was added to your account" with a link to remove it.`,
    body: { schema: 'PasskeyRegistrationBody', parsedWith: PasskeyRegistrationBodySchema, mediaTypes: JSON_ONLY, required: true },
    success: { '201': { kind: 'json', schema: 'Passkey', description: 'the passkey, now listed' } },
    errors: ['unauthorized', ...PASSKEY_CEREMONY, 'conflict', 'domain'],
  },
  {
    method: 'post',
    path: PASSKEY_PATHS.authenticationOptions,
    operationId: 'passkeyAuthenticationOptions',
    tag: 'auth',
    summary: 'Start a passkey sign-in',
    description: `${FORM_OR_NONE} A new challenge, single use, valid 5 minutes. Any body is ignored. Counted against the per-client attempt limit (429). Pass the answer to \`navigator.credentials.get()\`, with \`mediation: "conditional"\` for the autofill.`,
    success: { '200': { kind: 'json', schema: 'PasskeyRequestOptions', description: 'request options (WebAuthn Level 3 §5.5)' } },
    errors: ['forbidden', 'not_found', 'rate_limited', 'payload_too_large', 'store', 'internal'],
    links: { VerifyAuthentication: { operationId: 'passkeyAuthenticationVerify', description: 'send the assertion the browser made' } },
  },
  {
    method: 'post',
    path: PASSKEY_PATHS.authenticationVerify,
    operationId: 'passkeyAuthenticationVerify',
    tag: 'auth',
    summary: 'Sign in with a passkey',
    description: `${FORM_OR_NONE} ${PASSKEY_REFUSALS} A success is a session with \`aal: aal2\` and \`mfa\` in its \`amr\` (user verification is required). Counted against the per-client attempt limit (429).`,
    body: { schema: 'PasskeyAuthenticationBody', parsedWith: PasskeyAuthenticationBodySchema, mediaTypes: JSON_ONLY, required: true },
    success: { '200': { kind: 'json', schema: 'PasskeySignedIn', description: 'signed in', headers: ['Set-Cookie'] } },
    errors: [...PASSKEY_CEREMONY, 'account_disabled', 'rate_limited'],
    links: { SessionAfterPasskey: { operationId: 'getSession', description: 'the session the cookie now carries (aal2)' } },
  },
  {
    method: 'get',
    path: PASSKEY_PATHS.list,
    operationId: 'listPasskeys',
    tag: 'auth',
    summary: 'Your passkeys',
    security: 'session',
    success: { '200': { kind: 'json', schema: 'PasskeyList', description: 'every passkey of this account, in the order they were added' } },
    errors: ['unauthorized', 'store', 'internal'],
  },
  {
    method: 'post',
    path: PASSKEY_PATHS.removal,
    operationId: 'removePasskeysWithLink',
    tag: 'auth',
    summary: 'Remove passkeys with a removal link, without signing in',
    description: `${FORM_OR_NONE} \`token\` is the link's: the "A passkey was added to your account" mail's (7 days), or the one a completed reset leads to (/remove-passkeys lists the passkeys with a form posting here). The link works once, only while it is the newest; a dead one: 404. The passkeys named that belong to the link's account are removed; other ids are ignored. Without mail (no AUTH_PUBLIC_BASE_URL): 404. A form post (one \`passkey\` field per passkey) gets a 303 to /login?notice=passkeys_removed; a refused one, back to /remove-passkeys with the link's token and the error code.`,
    body: {
      schema: 'PasskeyRemovalBody',
      parsedWith: PasskeyRemovalBodySchema,
      mediaTypes: ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'],
      required: true,
    },
    success: {
      '200': { kind: 'json', schema: 'PasskeysRemoved', description: 'how many were removed' },
      '303': { kind: 'redirect', description: 'form post: to /login with the notice; refused, back to /remove-passkeys with the error', headers: ['Location'] },
    },
    errors: ['validation', 'forbidden', 'not_found', 'payload_too_large', 'unsupported_media_type', 'store', 'internal'],
  },
  {
    method: 'patch',
    path: '/api/auth/passkeys/{id}',
    operationId: 'renamePasskey',
    tag: 'auth',
    summary: 'Rename one of your passkeys',
    security: 'session',
    description: `${FORM_OR_NONE} An id that is not one of your passkeys answers 404.`,
    parameters: [PASSKEY_ID],
    body: { schema: 'PasskeyRenameBody', parsedWith: PasskeyRenameBodySchema, mediaTypes: JSON_ONLY, required: true },
    success: { '200': { kind: 'json', schema: 'Passkey', description: 'the renamed passkey' } },
    errors: [...SESSION_WRITE, 'validation', 'payload_too_large', 'unsupported_media_type'],
  },
  {
    method: 'delete',
    path: '/api/auth/passkeys/{id}',
    operationId: 'removePasskey',
    tag: 'auth',
    summary: 'Remove one of your passkeys',
    security: 'session',
    description: `${FORM_OR_NONE} It signs nobody in from then on; the other sessions end and the account's verified address is told by mail. Re-authentication as for account deletion: the password in the body, or none right after a provider or passkey sign-in (at most 5 minutes old), else 403. Only while another way in remains (a password, a linked provider, another passkey): else 409 \`conflict\`. An id that is not one of your passkeys answers 404.`,
    parameters: [PASSKEY_ID],
    body: { schema: 'PasskeyRemovalReauthBody', parsedWith: PasskeyRemovalReauthBodySchema, mediaTypes: JSON_ONLY, required: false },
    success: { '204': { kind: 'empty', description: 'removed' } },
    errors: [...SESSION_WRITE, 'validation', 'conflict', 'rate_limited', 'payload_too_large', 'unsupported_media_type'],
  },
];

export const PASSKEY_CONTRACT: ApiContract = {
  schemas: {
    Passkey: PasskeySchema,
    PasskeyList: PasskeyListSchema,
    PasskeyCreationOptions: PasskeyCreationOptionsSchema,
    PasskeyRequestOptions: PasskeyRequestOptionsSchema,
    PasskeySignedIn: PasskeySignedInSchema,
    PasskeyRegistrationBody: PasskeyRegistrationBodySchema,
    PasskeyAuthenticationBody: PasskeyAuthenticationBodySchema,
    PasskeyRenameBody: PasskeyRenameBodySchema,
    PasskeyRegistrationOptionsBody: PasskeyRegistrationOptionsBodySchema,
    PasskeyRemovalBody: PasskeyRemovalBodySchema,
    PasskeyRemovalReauthBody: PasskeyRemovalReauthBodySchema,
    PasskeysRemoved: v.object({ removed: v.pipe(v.number(), v.integer(), v.minValue(0)) }),
  },
  operations: OPERATIONS,
};
