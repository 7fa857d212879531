/**
 * requireSession() and requireAal() on a route of their own, over the in-memory platform: who gets
 * through, and every session that must not (none, forged, another store's, expired, idle, revoked,
 * too weak).
 */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.ts';
import { errorResponse } from '../../http/errors.ts';
import { createMemoryPlatform } from '../../platform/testing/memory-platform.ts';
import { parseAuthConfig } from '../config.ts';
import { issueSession, loginWithPassword, registerWithPassword, revokeSession, findActiveSession, type AuthDeps } from '../application/index.ts';
import { SESSION_COOKIE } from '../application/session-cookie.ts';
import { activeSession, sessionGuards, signedInSession, type SessionVariables } from './require-session.ts';

const alice = { email: 'alice@example.com', password: 'correct horse battery' };

function setup() {
  const platform = createMemoryPlatform();
  const deps: AuthDeps = { platform, config: parseAuthConfig(new Map([['AUTH_SESSION_IDLE_SECONDS', '600']])) };
  const guards = sessionGuards(deps);
  const app = new Hono<{ Variables: SessionVariables }>();
  app.get('/api/hello', guards.requireSession(), (c) => c.json({ user: c.var.user }));
  app.post('/api/vault', guards.requireAal('aal2'), (c) => c.json({ user: c.var.user.userId }));
  app.onError((error, c) => errorResponse(c, AppError.from(error)));
  return { platform, deps, app };
}

const withCookie = (sessionId: string) => ({ headers: { cookie: `${SESSION_COOKIE}=${sessionId}` } });

async function signIn(deps: AuthDeps) {
  await registerWithPassword(deps, alice);
  return loginWithPassword(deps, alice);
}

async function refusal(response: Response) {
  expect(response.status).toBe(401);
  return ((await response.json()) as { error: { code: string; message: string } }).error;
}

describe('requireSession()', () => {
  it('lets a signed-in user through and tells the route who it is, without the email', async () => {
    const { deps, app } = setup();
    const signedIn = await signIn(deps);
    const response = await app.request('/api/hello', withCookie(signedIn.session.sessionId));
    expect(response.status).toBe(200);
    const body = (await response.json()) as { user: Record<string, unknown> };
    expect(body.user).toEqual({ userId: signedIn.userId, aal: 'aal1', amr: ['pwd'] });
    expect(JSON.stringify(body)).not.toContain(alice.email);
  });

  it('answers 401 in the error envelope without a session cookie', async () => {
    const { app } = setup();
    expect(await refusal(await app.request('/api/hello'))).toEqual({ code: 'unauthorized', message: 'sign in first' });
  });

  it('refuses a forged cookie: a well-formed id no session was issued for', async () => {
    const { deps, app } = setup();
    await signIn(deps);
    expect((await refusal(await app.request('/api/hello', withCookie('A'.repeat(43))))).code).toBe('unauthorized');
  });

  it("refuses another store's session (the cookie of another deployment of the service)", async () => {
    const other = setup();
    const elsewhere = await signIn(other.deps);
    const { app } = setup();
    expect((await refusal(await app.request('/api/hello', withCookie(elsewhere.session.sessionId)))).code).toBe('unauthorized');
  });

  it('refuses an expired, an idle and a revoked session', async () => {
    const { platform, deps, app } = setup();
    const expiring = await issueSession(deps, { userId: 'u-1', email: null, aal: 'aal1', method: 'password' });
    platform.clock.advance(deps.config.sessionTtlSeconds * 1000);
    await refusal(await app.request('/api/hello', withCookie(expiring.sessionId)));

    const idle = await issueSession(deps, { userId: 'u-2', email: null, aal: 'aal1', method: 'password' });
    platform.clock.advance(deps.config.sessionIdleSeconds * 1000);
    await refusal(await app.request('/api/hello', withCookie(idle.sessionId)));

    const revoked = await issueSession(deps, { userId: 'u-3', email: null, aal: 'aal1', method: 'password' });
    revokeSession(deps, (await findActiveSession(deps, revoked.sessionId))!);
    await refusal(await app.request('/api/hello', withCookie(revoked.sessionId)));
  });
});

describe("requireAal('aal2')", () => {
  it('refuses a password session with 401 (a stronger sign-in is needed) and lets an aal2 session through', async () => {
    const { deps, app } = setup();
    const password = await signIn(deps);
    const refused = await refusal(await app.request('/api/vault', { method: 'POST', ...withCookie(password.session.sessionId) }));
    expect(refused.message).toMatch(/passkey/);
    const passkey = await issueSession(deps, { userId: password.userId, email: null, aal: 'aal2', method: 'passkey', amr: ['hwk', 'mfa'] });
    const response = await app.request('/api/vault', { method: 'POST', ...withCookie(passkey.sessionId) });
    expect(await response.json()).toEqual({ user: password.userId });
  });
});

describe('signedInSession()', () => {
  it("gives the auth routes the cookie's whole session, and refuses none or a revoked one with 401", async () => {
    const { deps } = setup();
    const signedIn = await signIn(deps);
    const headers = (sessionId: string) => new Headers({ cookie: `${SESSION_COOKIE}=${sessionId}` });
    const session = await signedInSession(deps, headers(signedIn.session.sessionId));
    expect(session).toEqual(await activeSession(deps, headers(signedIn.session.sessionId)));
    expect(session.userId).toBe(signedIn.userId);
    await expect(signedInSession(deps, new Headers())).rejects.toMatchObject({ code: 'unauthorized', message: 'sign in first' });
    revokeSession(deps, session);
    expect(await activeSession(deps, headers(signedIn.session.sessionId))).toBeUndefined();
    await expect(signedInSession(deps, headers(signedIn.session.sessionId))).rejects.toMatchObject({ code: 'unauthorized' });
  });
});
