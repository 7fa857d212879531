/**
 * A signed-in user's sessions (docs/auth.md, docs/security.md "Sessions"):
 *   GET    /api/auth/sessions              → { sessions: [{ id, device, method, issued_at, last_seen_at, expires_at, current }] }
 *   DELETE /api/auth/sessions/:id          → 204; that session ends (404 when not one of yours)
 *   POST   /api/auth/sessions/revoke-all   {remove_passkeys?} → { revoked: n, passkeys_removed: n }; every session ends, this one included,
 *                                          and with `remove_passkeys` every passkey too (a passkey is a sign-in no session end touches)
 *   POST   /api/auth/sessions/:id/revoke   → 303 to /dashboard: the no-JavaScript form variant of DELETE
 * revoke-all posted as an HTML form answers 303 to /login (the account page's forms, which work
 * without JavaScript). `id` is the session's public handle, never the session id. Without a session: 401
 * `unauthorized`. The two writes pass the same Origin / Sec-Fetch-Site check as the auth forms.
 */
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import * as v from 'valibot';
import { AppError } from '../../errors.ts';
import { removePasskeys } from '../passkeys/removal.ts';
import { isFormPost, readInput } from './input.ts';
import { wantsPasskeysRemoved } from './remove-passkeys-field.ts';
import { RevokeAllBodySchema } from './wire-schemas.ts';
import { clearedSessionCookie, listSessions, revokeAllSessions, revokeSessionByHandle, type AuthDeps } from '../application/index.ts';
import { activeSession, signedInSession } from './require-session.ts';

const NO_STORE = { 'Cache-Control': 'no-store' };

/** Handles are base64url of 16 random bytes. */
const Handle = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{22}$/, 'session id is malformed'));

export function userSessionRoutes(deps: AuthDeps, guards: { sameSite: MiddlewareHandler; limit: MiddlewareHandler }): Hono {
  const app = new Hono();
  const { logger } = deps.platform;
  const signedIn = (c: Context) => signedInSession(deps, c.req.raw.headers);

  app.get('/api/auth/sessions', async (c) => {
    const current = await signedIn(c);
    const sessions = listSessions(deps, current).map((s) => ({
      id: s.id,
      device: s.device,
      method: s.method,
      issued_at: new Date(s.issuedAt).toISOString(),
      last_seen_at: new Date(s.lastSeenAt).toISOString(),
      expires_at: new Date(s.expiresAt).toISOString(),
      current: s.current,
    }));
    return c.json({ sessions }, 200, NO_STORE);
  });

  // Before the :id route, so `revoke-all` is not taken for a handle.
  app.post('/api/auth/sessions/revoke-all', guards.limit, guards.sameSite, async (c) => {
    // A form whose session is gone already: signed out, as asked.
    if (isFormPost(c) && !(await activeSession(deps, c.req.raw.headers))) return c.redirect('/login', 303);
    const current = await signedIn(c);
    // No body at all is the plain "sign out everywhere".
    const body = (await c.req.raw.clone().text()) === '' ? {} : (await readInput(c, RevokeAllBodySchema)).input;
    const revoked = revokeAllSessions(deps, current);
    let passkeysRemoved = 0;
    if (wantsPasskeysRemoved(body.remove_passkeys)) {
      try {
        passkeysRemoved = removePasskeys(deps, current.userId, 'sessions_ended');
      } catch (error) {
        throw AppError.fromStore(error);
      }
    }
    logger.log('info', 'all sessions revoked', { code: 'auth_sessions_revoked_all', user_id: current.userId, revoked, passkeys_removed: passkeysRemoved });
    c.header('Set-Cookie', clearedSessionCookie(deps.config.cookieSecure));
    if (isFormPost(c)) return c.redirect('/login', 303);
    return c.json({ revoked, passkeys_removed: passkeysRemoved }, 200, NO_STORE);
  });

  /** Revokes one session by handle; true when it was the caller's own (its cookie is cleared). */
  const revokeOne = async (c: Context): Promise<boolean> => {
    const current = await signedIn(c);
    const handle = v.safeParse(Handle, c.req.param('id'));
    if (!handle.success) throw new AppError('not_found', 'no such session');
    const revoked = revokeSessionByHandle(deps, current, handle.output);
    const own = revoked.sessionHash === current.sessionHash;
    logger.log('info', 'session revoked', { code: 'auth_session_revoked', user_id: current.userId, current: own });
    if (own) c.header('Set-Cookie', clearedSessionCookie(deps.config.cookieSecure));
    return own;
  };

  app.delete('/api/auth/sessions/:id', guards.sameSite, async (c) => {
    await revokeOne(c);
    return c.body(null, 204, NO_STORE);
  });

  app.post('/api/auth/sessions/:id/revoke', guards.limit, guards.sameSite, async (c) => {
    try {
      const own = await revokeOne(c);
      return c.redirect(own ? '/login' : '/dashboard', 303);
    } catch (error) {
      // The form's page, never the API's answer: signed out, to /login; a session ended meanwhile, the fresh list.
      const failure = AppError.from(error);
      if (failure.code === 'unauthorized') return c.redirect(`/login?next=${encodeURIComponent('/dashboard')}`, 303);
      if (failure.code === 'not_found') return c.redirect('/dashboard', 303);
      throw failure;
    }
  });
  return app;
}
