/**
 * The session cookie in both cookie modes (Secure by default on an https base;
 * AUTH_COOKIE_SECURE=false on local http), session expiry
 * (AUTH_SESSION_TTL_SECONDS) and logout, over real HTTP against the real host.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type HostProcess } from '../../harness/host-process.ts';
import { cookieHeader, PASSWORD, postJson, register, sessionOf, uniqueEmail } from './support.ts';

/** Long enough that a loaded machine still sees the fresh session, short enough to wait for. */
const TTL_SECONDS = 6;
let secure: HostProcess;
let insecure: HostProcess;

beforeAll(async () => {
  [secure, insecure] = await Promise.all([
    // No AUTH_COOKIE_SECURE: the https base alone turns Secure and the __Host- prefix on.
    // A production-shaped base needs somewhere for mail to go (nothing listens there; no mail is read here).
    startHost({ env: { AUTH_PUBLIC_BASE_URL: 'https://auth.example.com', SMTP_URL: 'smtp://127.0.0.1:9' } }),
    startHost({ env: { AUTH_COOKIE_SECURE: 'false', AUTH_SESSION_TTL_SECONDS: String(TTL_SECONDS) } }),
  ]);
});
afterAll(async () => {
  await Promise.all([secure?.stop(), insecure?.stop()]);
});

function sessionSetCookie(response: Response): string {
  const header = response.headers.getSetCookie().find((c) => /^(__Host-)?wasi_auth_dev_session=/.test(c));
  expect(header).toBeDefined();
  return header!;
}

const attributes = (header: string) =>
  header
    .split(';')
    .slice(1)
    .map((a) => a.trim());

describe('an https AUTH_PUBLIC_BASE_URL (Secure by default)', () => {
  it('issues __Host-…; Secure; HttpOnly; SameSite=Lax; Path=/ on login (registration sets none), and clears it the same way', async () => {
    const email = uniqueEmail();
    const registered = await postJson(secure.url, '/api/auth/password/register', { email, password: PASSWORD });
    expect(registered.status).toBe(202);
    expect(registered.headers.getSetCookie()).toEqual([]);
    const login = sessionSetCookie(await postJson(secure.url, '/api/auth/password/login', { email, password: PASSWORD }));
    expect(login).toMatch(/^__Host-wasi_auth_dev_session=[A-Za-z0-9_-]{43};/);
    expect(login).not.toMatch(/Domain=/i);
    expect(attributes(login)).toEqual(expect.arrayContaining(['Secure', 'HttpOnly', 'SameSite=Lax', 'Path=/', 'Max-Age=43200']));
    const sessionId = /^__Host-wasi_auth_dev_session=([^;]+)/.exec(login)![1]!;
    // Only the prefixed name counts: a plain-named cookie (plantable by a sibling subdomain or http page) is ignored.
    const hostCookie = { cookie: `__Host-wasi_auth_dev_session=${sessionId}` };
    expect(await (await fetch(`${secure.url}/api/auth/session`, { headers: hostCookie })).json()).toMatchObject({ authenticated: true });
    expect(await (await fetch(`${secure.url}/api/auth/session`, { headers: cookieHeader(sessionId) })).json()).toMatchObject({ authenticated: false });
    const cleared = sessionSetCookie(await fetch(`${secure.url}/api/auth/logout`, { method: 'POST', headers: hostCookie }));
    expect(attributes(cleared)).toEqual(expect.arrayContaining(['Max-Age=0', 'Secure', 'HttpOnly', 'SameSite=Lax', 'Path=/']));
  });

  it('accepts AUTH_PUBLIC_BASE_URL as an Origin', async () => {
    const response = await postJson(secure.url, '/api/auth/password/register', { email: uniqueEmail(), password: PASSWORD }, { origin: 'https://auth.example.com' });
    expect(response.status).toBe(202);
  });
});

describe('AUTH_COOKIE_SECURE=false (local HTTP)', () => {
  it('issues HttpOnly; SameSite=Lax; Path=/ without Secure, with the configured Max-Age', async () => {
    const { email } = await register(insecure.url);
    const header = sessionSetCookie(await postJson(insecure.url, '/api/auth/password/login', { email, password: PASSWORD }));
    const list = attributes(header);
    expect(list).toEqual(expect.arrayContaining(['HttpOnly', 'SameSite=Lax', 'Path=/', `Max-Age=${TTL_SECONDS}`]));
    expect(list).not.toContain('Secure');
  });
});

describe('session expiry and logout', () => {
  it('a session stops authenticating once AUTH_SESSION_TTL_SECONDS have passed', async () => {
    const issuedAt = Date.now();
    const { sessionId } = await register(insecure.url);
    const first = await sessionOf(insecure.url, sessionId);
    expect(first['authenticated']).toBe(true);
    const expiresAt = Date.parse(String(first['expires_at']));
    // Expiry is issue time + TTL (the issue happened during the register request).
    expect(expiresAt - issuedAt).toBeGreaterThanOrEqual(TTL_SECONDS * 1000 - 50);
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(TTL_SECONDS * 1000);
    // Wait past the expiry; the page then also redirects.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiresAt - Date.now()) + 500));
    expect(await sessionOf(insecure.url, sessionId)).toEqual({ authenticated: false });
    const page = await fetch(`${insecure.url}/dashboard`, { headers: cookieHeader(sessionId), redirect: 'manual' });
    expect(page.status).toBe(302);
  });

  it('logout revokes the session server side: replaying the old cookie does not authenticate', async () => {
    const { sessionId } = await register(insecure.url);
    expect(await sessionOf(insecure.url, sessionId)).toMatchObject({ authenticated: true });
    expect((await fetch(`${insecure.url}/api/auth/logout`, { method: 'POST', headers: cookieHeader(sessionId) })).status).toBe(200);
    expect(await sessionOf(insecure.url, sessionId)).toEqual({ authenticated: false });
    expect((await fetch(`${insecure.url}/dashboard`, { headers: cookieHeader(sessionId), redirect: 'manual' })).status).toBe(302);
  });
});
