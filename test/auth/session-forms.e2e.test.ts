/**
 * The account page's no-JS session form route, POST /api/auth/sessions/:id/revoke, against the real
 * host: a cross-site form post (the CSRF attack) is refused and the session survives; the
 * same-origin post revokes it and answers 303 back to /dashboard.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type HostProcess } from '../../harness/host-process.ts';
import { cookieHeader, PASSWORD, postForm, postJson, register, sessionIdFrom } from './support.ts';

describe('POST /api/auth/sessions/:id/revoke (form)', () => {
  let host: HostProcess;
  beforeAll(async () => {
    host = await startHost();
  });
  afterAll(async () => {
    await host?.stop();
  });

  it('refuses a cross-site form post and revokes on a same-origin one', async () => {
    const first = await register(host.url);
    const second = sessionIdFrom(await postJson(host.url, '/api/auth/password/login', { email: first.email, password: PASSWORD }))!;
    const list = (await (await fetch(`${host.url}/api/auth/sessions`, { headers: cookieHeader(second) })).json()) as { sessions: { id: string; current: boolean }[] };
    const target = list.sessions.find((s) => !s.current)!;
    const sessionOf = async (id: string) =>
      ((await (await fetch(`${host.url}/api/auth/session`, { headers: cookieHeader(id) })).json()) as { authenticated: boolean }).authenticated;

    const attack = await postForm(host.url, `/api/auth/sessions/${target.id}/revoke`, {}, { ...cookieHeader(second), origin: 'https://evil.example' });
    expect(attack.status).toBe(403);
    expect(await sessionOf(first.sessionId)).toBe(true);

    const own = await postForm(host.url, `/api/auth/sessions/${target.id}/revoke`, {}, { ...cookieHeader(second), origin: host.url });
    expect(own.status).toBe(303);
    expect(own.headers.get('location')).toBe('/dashboard');
    expect(await sessionOf(first.sessionId)).toBe(false);
    expect(await sessionOf(second)).toBe(true);
  });
});
