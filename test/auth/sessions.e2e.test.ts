/**
 * Stolen, forgotten and fixed sessions against a real host (docs/security.md): a user lists their
 * sessions by public handle (never the session id), revoking another session signs that other
 * client out, revoke-all ends every one; signing in ends the session the browser held before
 * (session fixation); a cross-site page cannot revoke.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type HostProcess } from '../../harness/host-process.ts';
import { cookieHeader, expectError, PASSWORD, postJson, register, sessionIdFrom, sessionOf } from './support.ts';

interface Listed {
  id: string;
  device: string;
  current: boolean;
  issued_at: string;
  last_seen_at: string;
  expires_at: string;
}

describe('a user’s sessions', () => {
  let host: HostProcess;
  beforeAll(async () => {
    host = await startHost();
  }, 60_000);
  afterAll(async () => {
    await host?.stop();
  });

  const login = async (email: string, headers: Record<string, string> = {}) => {
    const response = await postJson(host.url, '/api/auth/password/login', { email, password: PASSWORD }, headers);
    expect(response.status).toBe(200);
    return sessionIdFrom(response)!;
  };
  const list = async (sessionId: string) => {
    const response = await fetch(`${host.url}/api/auth/sessions`, { headers: cookieHeader(sessionId) });
    expect(response.status).toBe(200);
    return ((await response.json()) as { sessions: Listed[] }).sessions;
  };

  it('lists by handle; revoking another session signs that client out; revoke-all ends them all', async () => {
    const { email } = await register(host.url);
    const laptop = await login(email, { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0' });
    const phone = await login(email, {
      'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
    });

    const sessions = await list(laptop);
    expect(sessions).toHaveLength(3);
    expect(sessions.filter((s) => s.current).map((s) => s.device)).toEqual(['Firefox on Linux']);
    const phoneEntry = sessions.find((s) => s.device === 'Safari on iOS')!;
    const body = JSON.stringify(sessions);
    for (const secret of [laptop, phone]) expect(body).not.toContain(secret);

    const revoke = await fetch(`${host.url}/api/auth/sessions/${phoneEntry.id}`, { method: 'DELETE', headers: cookieHeader(laptop) });
    expect(revoke.status).toBe(204);
    expect(await sessionOf(host.url, phone)).toEqual({ authenticated: false });
    expect(await sessionOf(host.url, laptop)).toMatchObject({ authenticated: true });
    expect((await list(laptop)).map((s) => s.id)).not.toContain(phoneEntry.id);
    // A handle that is not one of yours (or no longer live): 404.
    await expectError(await fetch(`${host.url}/api/auth/sessions/${phoneEntry.id}`, { method: 'DELETE', headers: cookieHeader(laptop) }), 404, 'not_found');

    const all = await fetch(`${host.url}/api/auth/sessions/revoke-all`, { method: 'POST', headers: cookieHeader(laptop) });
    expect(all.status).toBe(200);
    expect(await all.json()).toEqual({ revoked: 2, passkeys_removed: 0 });
    expect(await sessionOf(host.url, laptop)).toEqual({ authenticated: false });
    await expectError(await fetch(`${host.url}/api/auth/sessions`, { headers: cookieHeader(laptop) }), 401, 'unauthorized');
  });

  it('signing in ends the session the browser held before (session fixation)', async () => {
    const { email, sessionId: planted } = await register(host.url);
    const fresh = await login(email, cookieHeader(planted));
    expect(fresh).not.toBe(planted);
    expect(await sessionOf(host.url, planted)).toEqual({ authenticated: false });
    expect(await sessionOf(host.url, fresh)).toMatchObject({ authenticated: true });
  });

  it('a cross-site page cannot revoke sessions (403)', async () => {
    const { sessionId } = await register(host.url);
    const evil = { ...cookieHeader(sessionId), origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };
    await expectError(await fetch(`${host.url}/api/auth/sessions/revoke-all`, { method: 'POST', headers: evil }), 403, 'forbidden');
    const [entry] = await list(sessionId);
    await expectError(await fetch(`${host.url}/api/auth/sessions/${entry!.id}`, { method: 'DELETE', headers: evil }), 403, 'forbidden');
    expect(await sessionOf(host.url, sessionId)).toMatchObject({ authenticated: true });
  });
});
