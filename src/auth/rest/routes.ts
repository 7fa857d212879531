/**
 * The auth service's JSON REST routes (see docs/auth.md, "Routes"). Register, login and logout
 * also accept HTML form posts from /login and answer those with 303 redirects, so the pages
 * work without JavaScript; both modes run the same application calls. Registration never signs
 * in and answers a free and a taken email byte for byte alike (OWASP Authentication Cheat Sheet,
 * "Account enumeration"; docs/security.md).
 */
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { AppError, RateLimitedError } from '../../errors.ts';
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
  type SignedIn,
} from '../application/index.ts';
import { clientAddress } from '../../http/client-address.ts';
import { deviceHint } from '../domain/device-hint.ts';
import { formEchoCookie } from './form-echo.ts';
import { refusedFormUrl } from './form-return.ts';
import { inputMode, isFormPost, readCredentials } from './input.ts';
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

  /** Form failures become redirects, but are logged with their code like JSON ones. */
  const logFailure = (c: Context, error: AppError): void => void errorResponse(c, error, logger);

  /** A failed form post goes back to /login (post/redirect/get) with its refusal, keeping the typed email (never the password). */
  const formFailure = (c: Context, error: unknown, typedEmail: string | undefined, next: string | undefined, form: 'login' | 'register') => {
    const failure = AppError.from(error);
    logFailure(c, failure);
    const echo = formEchoCookie(typedEmail, config.cookieSecure);
    if (echo) c.header('Set-Cookie', echo);
    if (failure instanceof RateLimitedError) c.header('Retry-After', String(failure.retryAfterSeconds));
    c.header('Cache-Control', 'no-store');
    return c.redirect(refusedFormUrl('/login', form, failure, deps.platform.now(), { next: next === undefined ? undefined : safeNextPath(next) }), 303);
  };

  /**
   * Registration: validation errors answer as before (they tell nothing about existing accounts);
   * otherwise a free and a taken email get the same status, headers and body, and no session.
   * Only the log tells them apart, by code and user id, never by email.
   */
  app.post(AUTH_PATHS.register, limit, sameSite, async (c) => {
    const mode = inputMode(c);
    let next: string | undefined;
    let typedEmail: string | undefined;
    try {
      const client = clientAddress(c.req.raw.headers, config.clientAddressTrusted);
      await throttle(deps, 'register', client);
      const input = await readCredentials(c);
      next = input.next;
      typedEmail = input.credentials.email;
      const registration = await registerWithPassword(deps, input.credentials, client);
      if (registration.created) logger.log('info', 'account registered', { code: 'auth_register', user_id: registration.userId });
      else logger.log('info', 'registration for a taken email; nothing written', { code: 'auth_register_taken' });
    } catch (error) {
      if (mode === 'json') throw error;
      return formFailure(c, error, typedEmail, next, 'register');
    }
    c.header('Cache-Control', 'no-store');
    if (mode === 'json') return c.json(REGISTRATION_ACCEPTED, 202);
    // The login form then shows the typed email, as after a failed post.
    const echo = formEchoCookie(typedEmail, config.cookieSecure);
    if (echo) c.header('Set-Cookie', echo);
    return c.redirect(registeredPageUrl(next), 303);
  });

  /** Login: read credentials, sign in, answer by mode. */
  app.post(AUTH_PATHS.login, limit, sameSite, async (c) => {
    const mode = inputMode(c);
    const context = {
      client: clientAddress(c.req.raw.headers, config.clientAddressTrusted),
      device: deviceHint(c.req.header('user-agent')),
      deviceCookie: deviceCookieFromHeader(c.req.header('cookie'), config.cookieSecure),
    };
    let signedIn: SignedIn;
    let next: string | undefined;
    let typedEmail: string | undefined;
    try {
      await throttle(deps, 'login', context.client);
      const input = await readCredentials(c);
      next = input.next;
      typedEmail = input.credentials.email;
      signedIn = await loginWithPassword(deps, input.credentials, context);
      // Session fixation: the session this browser held before ends with the new sign-in.
      await revokePreviousSession(deps, sessionIdFromCookieHeader(c.req.header('cookie'), deps.config.cookieSecure));
    } catch (error) {
      if (mode === 'json') throw error;
      return formFailure(c, error, typedEmail, next, 'login');
    }
    logger.log('info', 'signed in', { code: 'auth_login', user_id: signedIn.userId });
    c.header('Set-Cookie', signedIn.session.setCookie);
    if (signedIn.deviceCookie) c.header('Set-Cookie', signedIn.deviceCookie, { append: true });
    c.header('Cache-Control', 'no-store');
    if (mode === 'form') return c.redirect(safeNextPath(next), 303);
    return c.json({ authenticated: true, user_id: signedIn.userId, email: signedIn.email, expires_at: new Date(signedIn.session.expiresAt).toISOString() }, 200);
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
