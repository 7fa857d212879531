/**
 * The auth service's JSON REST routes (see docs/auth.md, "Routes"). Register, login and logout
 * also accept HTML form posts from /login and answer those with 303 redirects, so the pages
 * work without JavaScript; both modes run the same application calls. Registration never signs
 * in and answers a free and a taken email byte for byte alike (OWASP Authentication Cheat Sheet,
 * "Account enumeration"; docs/security.md).
 */
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { AppError } from '../../errors.ts';
import { errorResponse, methodNotAllowedResponse } from '../../http/errors.ts';
import {
  authorizeSystemAdmin,
  bearerToken,
  clearedSessionCookie,
  deviceCookieFromHeader,
  getStorageStatus,
  loginWithPassword,
  registerWithPassword,
  revokePreviousSession,
  revokeSession,
  safeNextPath,
  throttle,
  sessionIdFromCookieHeader,
  type AuthDeps,
} from '../application/index.ts';
import { clientAddress } from '../../http/client-address.ts';
import { deviceHint } from '../domain/device-hint.ts';
import { formEchoCookie } from './form-echo.ts';
import { formOrJson, type Answer, type Call } from './form-or-json.ts';
import { inputMode, isFormPost, readCredentials, type CredentialsInput } from './input.ts';
import { originCheck } from './origin-check.ts';
import { activeSession } from './require-session.ts';
import { sessionView } from './session-view.ts';
import { userSessionRoutes } from './session-routes.ts';
import { ACCOUNT_PATHS, accountRoutes } from './account-routes.ts';
import { PASSKEY_PATHS, passkeyRoutes } from '../passkeys/routes.ts';
import { SIGN_IN_METHOD_PATHS, signInMethodRoutes } from './sign-in-method-routes.ts';
import { relyingParty } from '../passkeys/relying-party.ts';
import { mailRoutes } from './mail-routes.ts';
import { emailChangeRoutes } from './email-change-routes.ts';

export const AUTH_PATHS = {
  capabilities: '/api/auth/capabilities',
  session: '/api/auth/session',
  register: '/api/auth/password/register',
  login: '/api/auth/password/login',
  logout: '/api/auth/logout',
  sessions: '/api/auth/sessions',
  sessionItem: '/api/auth/sessions/:id',
  sessionRevoke: '/api/auth/sessions/:id/revoke',
  revokeAll: '/api/auth/sessions/revoke-all',
  storageStatus: '/api/auth/storage/status',
} as const;

/** Credentials are tiny; this bounds what an anonymous caller can make us read. */
const MAX_BODY_BYTES = 16 * 1024;
const NO_STORE = { 'Cache-Control': 'no-store' };

/** After a registration form post, free email or taken: /login with the neutral notice. */
function registeredPageUrl(next: string | undefined): string {
  const query = new URLSearchParams({ notice: 'registered' });
  if (next) query.set('next', safeNextPath(next));
  return `/login?${query.toString()}`;
}

/** The one answer to an accepted registration, whether the email was free or taken. */
const REGISTRATION_ACCEPTED = {
  status: 'accepted',
  message: 'If the email was free, the account exists now. Sign in with it.',
  login: AUTH_PATHS.login,
} as const;

export function authRestRoutes(deps: AuthDeps): Hono {
  const app = new Hono();
  const { logger } = deps.platform;
  const { config } = deps;
  const limit = bodyLimit({ maxSize: MAX_BODY_BYTES, onError: (c) => errorResponse(c, new AppError('payload_too_large', 'request body exceeds 16 KiB'), logger) });
  const sameSite = originCheck(config);
  const session = (c: Context) => activeSession(deps, c.req.raw.headers);

  app.get(AUTH_PATHS.capabilities, (c) =>
    c.json(
      {
        password: { enabled: true, min_length: config.passwordMinLength, register: AUTH_PATHS.register, login: AUTH_PATHS.login, reset: config.mail !== undefined },
        email_verification: { enabled: config.mail !== undefined },
        oauth: { providers: (deps.offeredProviders?.() ?? []).map((p) => ({ id: p.id, label: p.label, start: p.startPath })) },
        passkeys: { enabled: relyingParty(config) !== undefined, authentication_options: PASSKEY_PATHS.authenticationOptions },
      },
      200,
      NO_STORE,
    ),
  );

  app.get(AUTH_PATHS.session, async (c) => c.json(sessionView(await session(c)), 200, NO_STORE));

  const route = formOrJson(deps);
  /**
   * A password form of /login (register, login), also posted as JSON: a foreign Content-Type is
   * refused (415) before it counts against the client's throttle; then the credentials are read,
   * and a refused form comes back to /login keeping the typed email (never the password) and `next`.
   */
  const passwordRoute = (path: string, form: 'register' | 'login', handler: (c: Context, call: Call, input: CredentialsInput & { client: string }) => Promise<Answer>) =>
    app.post(
      path,
      limit,
      sameSite,
      route.anyone(
        { path: '/login', form },
        async (c, call) => {
          inputMode(c);
          const client = clientAddress(c.req.raw.headers, config.clientAddressTrusted);
          await throttle(deps, form, client);
          const input = await readCredentials(c);
          call.keep({ email: input.credentials.email, next: input.next });
          return handler(c, call, { ...input, client });
        },
        { echo: '/login' },
      ),
    );

  /**
   * Registration: validation errors answer as before (they tell nothing about existing accounts);
   * otherwise a free and a taken email get the same status, headers and body, and no session.
   * Only the log tells them apart, by code and user id, never by email.
   */
  passwordRoute(AUTH_PATHS.register, 'register', async (c, call, { credentials, next, client }) => {
    const registration = await registerWithPassword(deps, credentials, client);
    if (registration.created) logger.log('info', 'account registered', { code: 'auth_register', user_id: registration.userId });
    else logger.log('info', 'registration for a taken email; nothing written', { code: 'auth_register_taken' });
    if (call.mode === 'form') {
      // The login form then shows the typed email, as after a refused post.
      const echo = formEchoCookie(credentials.email, config.cookieSecure);
      if (echo) c.header('Set-Cookie', echo);
    }
    return { json: REGISTRATION_ACCEPTED, status: 202, see: registeredPageUrl(next) };
  });

  /** Login: sign in, end the session this browser held before, set the cookies. */
  passwordRoute(AUTH_PATHS.login, 'login', async (c, _call, { credentials, next, client }) => {
    const context = {
      client,
      device: deviceHint(c.req.header('user-agent')),
      deviceCookie: deviceCookieFromHeader(c.req.header('cookie'), config.cookieSecure),
    };
    const signedIn = await loginWithPassword(deps, credentials, context);
    // Session fixation: the session this browser held before ends with the new sign-in.
    await revokePreviousSession(deps, sessionIdFromCookieHeader(c.req.header('cookie'), config.cookieSecure));
    logger.log('info', 'signed in', { code: 'auth_login', user_id: signedIn.userId });
    c.header('Set-Cookie', signedIn.session.setCookie);
    if (signedIn.deviceCookie) c.header('Set-Cookie', signedIn.deviceCookie, { append: true });
    return {
      json: { authenticated: true, user_id: signedIn.userId, email: signedIn.email, expires_at: new Date(signedIn.session.expiresAt).toISOString() },
      see: safeNextPath(next),
    };
  });

  app.post(AUTH_PATHS.logout, limit, sameSite, async (c) => {
    const current = await session(c);
    if (current) {
      revokeSession(deps, current);
      logger.log('info', 'signed out', { code: 'auth_logout', user_id: current.userId });
    }
    c.header('Set-Cookie', clearedSessionCookie(config.cookieSecure));
    c.header('Cache-Control', 'no-store');
    const isForm = isFormPost(c);
    return isForm ? c.redirect('/login', 303) : c.json({ authenticated: false });
  });

  app.route('/', userSessionRoutes(deps, { sameSite, limit }));
  app.route('/', accountRoutes(deps, { sameSite, limit }));
  app.route('/', signInMethodRoutes(deps, { sameSite, limit }));
  app.route('/', passkeyRoutes(deps, { sameSite }));
  app.route('/', mailRoutes(deps, { sameSite, limit }));
  app.route('/', emailChangeRoutes(deps, { sameSite, limit }));

  app.get(AUTH_PATHS.storageStatus, async (c) => {
    const principal = await authorizeSystemAdmin(deps, bearerToken(c.req.header('authorization')));
    logger.log('info', 'storage status read', { code: 'auth_storage_status', subject: principal.subject });
    return c.json(getStorageStatus(deps), 200, NO_STORE);
  });

  // Registered last, so they only see methods the routes above did not take.
  for (const path of [AUTH_PATHS.capabilities, AUTH_PATHS.session, AUTH_PATHS.storageStatus]) app.all(path, (c) => methodNotAllowedResponse(c, ['GET', 'HEAD'], logger));
  for (const path of [AUTH_PATHS.register, AUTH_PATHS.login, AUTH_PATHS.logout, AUTH_PATHS.revokeAll, AUTH_PATHS.sessionRevoke, ACCOUNT_PATHS.deleteForm])
    app.all(path, (c) => methodNotAllowedResponse(c, ['POST'], logger));
  app.all(AUTH_PATHS.sessions, (c) => methodNotAllowedResponse(c, ['GET', 'HEAD'], logger));
  app.all(AUTH_PATHS.sessionItem, (c) => methodNotAllowedResponse(c, ['DELETE'], logger));
  app.all(ACCOUNT_PATHS.account, (c) => methodNotAllowedResponse(c, ['DELETE'], logger));
  for (const path of [
    PASSKEY_PATHS.registrationOptions,
    PASSKEY_PATHS.registrationVerify,
    PASSKEY_PATHS.authenticationOptions,
    PASSKEY_PATHS.authenticationVerify,
    PASSKEY_PATHS.removal,
  ])
    app.all(path, (c) => methodNotAllowedResponse(c, ['POST'], logger));
  app.all(PASSKEY_PATHS.list, (c) => methodNotAllowedResponse(c, ['GET', 'HEAD'], logger));
  app.all(PASSKEY_PATHS.item, (c) => methodNotAllowedResponse(c, ['PATCH', 'DELETE'], logger));
  app.all(SIGN_IN_METHOD_PATHS.list, (c) => methodNotAllowedResponse(c, ['GET', 'HEAD'], logger));
  app.all(SIGN_IN_METHOD_PATHS.remove, (c) => methodNotAllowedResponse(c, ['POST'], logger));

  app.onError((error, c) => {
    const failure = AppError.from(error);
    return errorResponse(c, failure, logger, failure.code === 'unauthorized' ? { 'WWW-Authenticate': 'Bearer' } : undefined);
  });
  return app;
}
