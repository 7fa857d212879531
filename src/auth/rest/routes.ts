/**
 * The auth service's JSON REST routes (see README "Auth service"). Register, login and logout
 * also accept HTML form posts from /login and answer those with 303 redirects, so the pages
 * work without JavaScript; both modes run the same application calls.
 */
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { AppError } from '../../errors.ts';
import { errorResponse, methodNotAllowedResponse } from '../../counter/http-errors.ts';
import {
  authorizeSystemAdmin,
  bearerToken,
  clearedSessionCookie,
  findActiveSession,
  getStorageStatus,
  loginWithPassword,
  registerWithPassword,
  revokeSession,
  safeNextPath,
  sessionIdFromCookieHeader,
  type AuthDeps,
  type SignedIn,
} from '../application/index.ts';
import { inputMode, readCredentials } from './input.ts';
import { originCheck } from './origin-check.ts';
import { sessionView } from './session-view.ts';

export const AUTH_PATHS = {
  capabilities: '/api/auth/capabilities',
  session: '/api/auth/session',
  register: '/api/auth/password/register',
  login: '/api/auth/password/login',
  logout: '/api/auth/logout',
  storageStatus: '/api/auth/storage/status',
} as const;

/** Credentials are tiny; this bounds what an anonymous caller can make us read. */
const MAX_BODY_BYTES = 16 * 1024;
const NO_STORE = { 'Cache-Control': 'no-store' };

/** Where a failed form post goes back to: /login with the error code (no detail) and the next path. */
function loginPageUrl(error: string, next: string | undefined, form: 'login' | 'register'): string {
  const query = new URLSearchParams({ error, form });
  if (next) query.set('next', safeNextPath(next));
  return `/login?${query.toString()}`;
}

export function authRestRoutes(deps: AuthDeps): Hono {
  const app = new Hono();
  const { logger } = deps.platform;
  const { config } = deps;
  const limit = bodyLimit({ maxSize: MAX_BODY_BYTES, onError: (c) => errorResponse(c, new AppError('payload_too_large', 'request body exceeds 16 KiB'), logger) });
  const sameSite = originCheck(config);
  const session = (c: Context) => findActiveSession(deps, sessionIdFromCookieHeader(c.req.header('cookie')));

  app.get(AUTH_PATHS.capabilities, (c) =>
    c.json(
      {
        password: { enabled: true, min_length: config.passwordMinLength, register: AUTH_PATHS.register, login: AUTH_PATHS.login },
        oauth: { providers: (deps.offeredProviders?.() ?? []).map((p) => ({ id: p.id, label: p.label, start: p.startPath })) },
      },
      200,
      NO_STORE,
    ),
  );

  app.get(AUTH_PATHS.session, async (c) => c.json(sessionView(await session(c)), 200, NO_STORE));

  /** Form failures become redirects, but are logged with their code like JSON ones. */
  const logFailure = (c: Context, error: AppError): void => void errorResponse(c, error, logger);

  /** Register and login share the shape: read credentials, sign in, answer by mode. */
  const signIn = (form: 'login' | 'register', status: 200 | 201, run: typeof loginWithPassword) => async (c: Context) => {
    const mode = inputMode(c);
    let signedIn: SignedIn;
    let next: string | undefined;
    try {
      const input = await readCredentials(c);
      next = input.next;
      signedIn = await run(deps, input.credentials);
    } catch (error) {
      if (mode === 'json') throw error;
      const failure = AppError.from(error);
      logFailure(c, failure);
      return c.redirect(loginPageUrl(failure.code, next, form), 303);
    }
    logger.log('info', form === 'register' ? 'account registered' : 'signed in', { code: `auth_${form}`, user_id: signedIn.userId });
    c.header('Set-Cookie', signedIn.session.setCookie);
    c.header('Cache-Control', 'no-store');
    if (mode === 'form') return c.redirect(safeNextPath(next), 303);
    return c.json({ authenticated: true, user_id: signedIn.userId, email: signedIn.email, expires_at: new Date(signedIn.session.expiresAt).toISOString() }, status);
  };

  app.post(AUTH_PATHS.register, limit, sameSite, signIn('register', 201, registerWithPassword));
  app.post(AUTH_PATHS.login, limit, sameSite, signIn('login', 200, loginWithPassword));

  app.post(AUTH_PATHS.logout, limit, sameSite, async (c) => {
    const current = await session(c);
    if (current) {
      revokeSession(deps, current);
      logger.log('info', 'signed out', { code: 'auth_logout', user_id: current.userId });
    }
    c.header('Set-Cookie', clearedSessionCookie(config.cookieSecure));
    c.header('Cache-Control', 'no-store');
    const isForm = /^(application\/x-www-form-urlencoded|multipart\/form-data)/i.test(c.req.header('content-type') ?? '');
    return isForm ? c.redirect('/login', 303) : c.json({ authenticated: false });
  });

  app.get(AUTH_PATHS.storageStatus, async (c) => {
    const principal = await authorizeSystemAdmin(deps, bearerToken(c.req.header('authorization')));
    logger.log('info', 'storage status read', { code: 'auth_storage_status', subject: principal.subject });
    return c.json(getStorageStatus(deps), 200, NO_STORE);
  });

  // Registered last, so they only see methods the routes above did not take.
  for (const path of [AUTH_PATHS.capabilities, AUTH_PATHS.session, AUTH_PATHS.storageStatus]) app.all(path, (c) => methodNotAllowedResponse(c, ['GET', 'HEAD'], logger));
  for (const path of [AUTH_PATHS.register, AUTH_PATHS.login, AUTH_PATHS.logout]) app.all(path, (c) => methodNotAllowedResponse(c, ['POST'], logger));

  app.onError((error, c) => {
    const failure = AppError.from(error);
    return errorResponse(c, failure, logger, failure.code === 'unauthorized' ? { 'WWW-Authenticate': 'Bearer' } : undefined);
  });
  return app;
}
