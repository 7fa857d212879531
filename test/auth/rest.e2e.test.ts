/**
 * The auth REST contract over real HTTP against the real host and component: every route and
 * error, form posts, the Origin check, rate limiting, and logs free of secrets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNSUPPORTED_CHARACTER_MESSAGE } from '../../src/auth/domain/password-policy.ts';
import { startHost, type HostProcess } from '../../harness/host-process.ts';
import { cookieHeader, expectError, PASSWORD, postForm, postJson, register, sessionIdFrom, sessionOf, uniqueEmail } from './support.ts';

let host: HostProcess;
/** Every secret this suite handles: none may appear in the host's output. */
const secrets = new Set<string>([PASSWORD]);

beforeAll(async () => {
  // Each register() is two attempts (register, then login) from one address; the per-client
  // budget (login throttling, tested in lockout.e2e.test.ts) is raised so this suite stays under it.
  host = await startHost({ env: { AUTH_LOGIN_MAX_FAILURES: '3', AUTH_LOGIN_LOCKOUT_SECONDS: '120', AUTH_CLIENT_MAX_ATTEMPTS_PER_MINUTE: '1000' } });
});
afterAll(async () => {
  await host?.stop();
});

describe('GET /api/auth/capabilities', () => {
  it('offers password login and no OAuth provider by default, and no mail without AUTH_PUBLIC_BASE_URL', async () => {
    const response = await fetch(`${host.url}/api/auth/capabilities`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      password: { enabled: true, min_length: 12, register: '/api/auth/password/register', login: '/api/auth/password/login', reset: false },
      email_verification: { enabled: false },
      oauth: { providers: [] },
      passkeys: { enabled: false, authentication_options: '/api/auth/passkeys/authentication/options' },
    });
  });
});

describe('POST /api/auth/password/register', () => {
  it('creates the account (202, fixed body, no session); signing in then reaches it', async () => {
    const email = uniqueEmail('Reg').replace('reg', 'Reg');
    const response = await postJson(host.url, '/api/auth/password/register', { email: `  ${email.toUpperCase()} `, password: PASSWORD });
    expect(response.status).toBe(202);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(sessionIdFrom(response)).toBeUndefined();
    expect(await response.json()).toEqual({ status: 'accepted', message: 'If the email was free, the account exists now. Sign in with it.', login: '/api/auth/password/login' });
    const login = await postJson(host.url, '/api/auth/password/login', { email, password: PASSWORD });
    expect(login.status).toBe(200);
    const body = (await login.json()) as Record<string, string>;
    expect(body).toMatchObject({ authenticated: true, email: email.toLowerCase() });
    expect(body['user_id']).toMatch(/^[0-9a-f-]{36}$/);
    const sessionId = sessionIdFrom(login)!;
    secrets.add(sessionId);
    expect(sessionId).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const session = await sessionOf(host.url, sessionId);
    expect(session).toMatchObject({ authenticated: true, user_id: body['user_id'], email: email.toLowerCase(), aal: 'aal1', method: 'password' });
    expect(Date.parse(String(session['expires_at']))).toBeGreaterThan(Date.now());
    expect(JSON.stringify(session)).not.toContain(sessionId);
  });

  it('answers a taken email like a free one and keeps its password (the attack: register-enumeration.e2e.test.ts)', async () => {
    const { email } = await register(host.url);
    expect((await postJson(host.url, '/api/auth/password/register', { email: email.toUpperCase(), password: 'another long password' })).status).toBe(202);
    expect((await postJson(host.url, '/api/auth/password/login', { email, password: PASSWORD })).status).toBe(200);
  });

  it('validates email, password length and body shape', async () => {
    await expectError(await postJson(host.url, '/api/auth/password/register', { email: 'not-an-email', password: PASSWORD }), 400, 'validation', 'email must be a valid address');
    await expectError(
      await postJson(host.url, '/api/auth/password/register', { email: uniqueEmail(), password: 'short' }),
      400,
      'validation',
      'password must be at least 12 characters',
    );
    await expectError(await postJson(host.url, '/api/auth/password/register', { email: uniqueEmail() }), 400, 'validation');
    await expectError(await postJson(host.url, '/api/auth/password/register', [1, 2]), 400, 'validation');
    const malformed = await fetch(`${host.url}/api/auth/password/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"email":' });
    await expectError(malformed, 400, 'validation', 'request body is not valid JSON');
  });

  it('hashes the NFKC form (é composed or decomposed, full-width letters) and refuses what the guest cannot normalize, as under wasmtime serve', async () => {
    const [composed, decomposed, folded] = ['cl\u00e9 ｆｕｌｌ-width staple', 'cle\u0301 ｆｕｌｌ-width staple', 'cl\u00e9 full-width staple'];
    for (const password of [composed, decomposed, folded]) secrets.add(password);
    const email = uniqueEmail('unicode');
    expect((await postJson(host.url, '/api/auth/password/register', { email, password: decomposed })).status).toBe(202);
    for (const password of [composed, decomposed, folded]) expect((await postJson(host.url, '/api/auth/password/login', { email, password })).status, password).toBe(200);
    const unsupported = 'correct horse \u07fd battery';
    await expectError(await postJson(host.url, '/api/auth/password/register', { email: uniqueEmail(), password: unsupported }), 400, 'validation', UNSUPPORTED_CHARACTER_MESSAGE);
    await expectError(await postJson(host.url, '/api/auth/password/login', { email, password: unsupported }), 400, 'validation', UNSUPPORTED_CHARACTER_MESSAGE);
  });

  it('answers 415 to other media types and 413 to oversized bodies', async () => {
    const text = await fetch(`${host.url}/api/auth/password/register`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' });
    await expectError(text, 415, 'unsupported_media_type');
    await expectError(await postJson(host.url, '/api/auth/password/register', { email: uniqueEmail(), password: 'x'.repeat(20_000) }), 413, 'payload_too_large');
  });
});

describe('POST /api/auth/password/login', () => {
  it('signs in with the right password, case-insensitively on the email', async () => {
    const { email, userId } = await register(host.url);
    const response = await postJson(host.url, '/api/auth/password/login', { email: email.toUpperCase(), password: PASSWORD });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ authenticated: true, user_id: userId, email });
    const sessionId = sessionIdFrom(response)!;
    secrets.add(sessionId);
    expect(await sessionOf(host.url, sessionId)).toMatchObject({ authenticated: true, user_id: userId });
  });

  it('gives the same 401 for a wrong password and an unknown email', async () => {
    const { email } = await register(host.url);
    await expectError(await postJson(host.url, '/api/auth/password/login', { email, password: 'wrong password here' }), 401, 'invalid_credentials', 'invalid email or password');
    await expectError(
      await postJson(host.url, '/api/auth/password/login', { email: uniqueEmail('nobody'), password: PASSWORD }),
      401,
      'invalid_credentials',
      'invalid email or password',
    );
  });

  it('locks an email after 3 failures: 429 with Retry-After, even for the right password', async () => {
    const { email } = await register(host.url);
    for (let i = 0; i < 3; i++) {
      await expectError(await postJson(host.url, '/api/auth/password/login', { email, password: `wrong password ${i}` }), 401, 'invalid_credentials');
    }
    const locked = await postJson(host.url, '/api/auth/password/login', { email, password: PASSWORD });
    const retryAfter = Number(locked.headers.get('retry-after'));
    await expectError(locked, 429, 'rate_limited', 'too many attempts, try again later');
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(120);
    // Another email is not affected.
    const other = await register(host.url);
    expect((await postJson(host.url, '/api/auth/password/login', { email: other.email, password: PASSWORD })).status).toBe(200);
  });
});

describe('password hashing on the host', () => {
  // End to end through the real host. The check that fails when the KDF blocks the host's thread is
  // host/password/argon2id.unit.test.ts ("never blocks the event loop"); a blocking KDF still lets
  // reads slip in between logins here, so this one shows the whole path, not the defence.
  it('does not block other requests: reads finish while logins are hashing', async () => {
    // One account per login: concurrent logins to one (email, address) pair reserve attempts, and
    // one in flight past AUTH_LOGIN_MAX_FAILURES is refused by design (the lockout race, lockout.e2e.test.ts).
    const emails = await Promise.all(Array.from({ length: 8 }, async () => (await register(host.url)).email));
    // Warm the instance pool for 8 logins + 5 reads: creating an instance costs more than a KDF run
    // on a loaded machine, and this test is about the host's thread, not about instance start-up.
    await Promise.all(Array.from({ length: 16 }, () => fetch(`${host.url}/api/auth/capabilities`).then((r) => r.arrayBuffer())));
    const finished: string[] = [];
    // Eight logins need two rounds of libuv's four pool threads, so the last one ends at least two
    // KDF runs after the start, whatever the machine's load; a blocked host thread would hold the reads behind them.
    const logins = emails.map((email) =>
      postJson(host.url, '/api/auth/password/login', { email, password: PASSWORD }).then(async (r) => {
        expect(r.status).toBe(200);
        secrets.add(sessionIdFrom(r)!);
        finished.push('login');
      }),
    );
    const reads = Array.from({ length: 5 }, () =>
      fetch(`${host.url}/api/auth/capabilities`).then(async (r) => {
        await r.arrayBuffer();
        finished.push('read');
      }),
    );
    await Promise.all([...logins, ...reads]);
    // Every read completed before the last login did.
    expect(finished.lastIndexOf('read')).toBeLessThan(finished.lastIndexOf('login'));
  });
});

describe('POST /api/auth/logout', () => {
  it('revokes the session and clears the cookie', async () => {
    const { sessionId } = await register(host.url);
    secrets.add(sessionId);
    const response = await fetch(`${host.url}/api/auth/logout`, { method: 'POST', headers: cookieHeader(sessionId) });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ authenticated: false });
    const cleared = response.headers.getSetCookie().find((c) => c.startsWith('wasi_auth_dev_session='))!;
    expect(cleared).toMatch(/^wasi_auth_dev_session=; Max-Age=0;/);
    expect(await sessionOf(host.url, sessionId)).toEqual({ authenticated: false });
  });

  it('is harmless without a session', async () => {
    const response = await fetch(`${host.url}/api/auth/logout`, { method: 'POST' });
    expect(response.status).toBe(200);
  });
});

describe('GET /api/auth/session', () => {
  it('reports unauthenticated without a cookie, with a malformed one and with an unknown one', async () => {
    expect(await sessionOf(host.url)).toEqual({ authenticated: false });
    const malformed = await fetch(`${host.url}/api/auth/session`, { headers: { cookie: 'wasi_auth_dev_session=<script>' } });
    expect(await malformed.json()).toEqual({ authenticated: false });
    expect(await sessionOf(host.url, 'A'.repeat(43))).toEqual({ authenticated: false });
  });
});

describe('cross-site protection (Origin check)', () => {
  it('refuses a foreign Origin on register, login and logout with 403', async () => {
    const evil = { origin: 'https://evil.example' };
    await expectError(await postJson(host.url, '/api/auth/password/register', { email: uniqueEmail(), password: PASSWORD }, evil), 403, 'forbidden', 'cross-site request refused');
    await expectError(await postJson(host.url, '/api/auth/password/login', { email: uniqueEmail(), password: PASSWORD }, evil), 403, 'forbidden');
    const { sessionId } = await register(host.url);
    secrets.add(sessionId);
    await expectError(await fetch(`${host.url}/api/auth/logout`, { method: 'POST', headers: { ...evil, ...cookieHeader(sessionId) } }), 403, 'forbidden');
    await expectError(await fetch(`${host.url}/api/auth/logout`, { method: 'POST', headers: { 'sec-fetch-site': 'cross-site', ...cookieHeader(sessionId) } }), 403, 'forbidden');
    expect(await sessionOf(host.url, sessionId)).toMatchObject({ authenticated: true });
  });

  it('accepts the service’s own origin', async () => {
    const response = await postJson(host.url, '/api/auth/password/register', { email: uniqueEmail(), password: PASSWORD }, { origin: host.url });
    expect(response.status).toBe(202);
  });
});

describe('form posts (the /login page without JavaScript)', () => {
  it('registers and redirects (303) to /login with the neutral notice, the next path and no session', async () => {
    const email = uniqueEmail();
    const response = await postForm(host.url, '/api/auth/password/register', { email, password: PASSWORD, next: '/dashboard?tab=1' });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/login?notice=registered&next=%2Fdashboard%3Ftab%3D1');
    expect(sessionIdFrom(response)).toBeUndefined();
    const echo = response.headers
      .getSetCookie()
      .find((c) => c.startsWith('wasi_auth_form_email='))!
      .split(';')[0]!;
    const page = await (await fetch(`${host.url}${response.headers.get('location')}`, { headers: { cookie: echo } })).text();
    expect(page).toContain('If the address was free, your account exists now: sign in.');
    expect(page).toMatch(new RegExp(`id="login-email"[^>]*value="${email.replace(/[.]/g, '\\.')}"`));
  });

  it('ignores an unsafe next', async () => {
    const { email } = await register(host.url);
    const response = await postForm(host.url, '/api/auth/password/login', { email, password: PASSWORD, next: '//evil.example/x' });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/dashboard');
    secrets.add(sessionIdFrom(response)!);
  });

  it('sends a failed login back to /login with the error code and no cookie', async () => {
    const response = await postForm(host.url, '/api/auth/password/login', { email: uniqueEmail(), password: 'wrong password here', next: '/dashboard' });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/login?error=invalid_credentials&form=login&next=%2Fdashboard');
    expect(sessionIdFrom(response)).toBeUndefined();
  });

  it('logs out with a redirect to /login', async () => {
    const { sessionId } = await register(host.url);
    secrets.add(sessionId);
    const response = await postForm(host.url, '/api/auth/logout', {}, cookieHeader(sessionId));
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/login');
  });
});

describe('pages', () => {
  it('/dashboard redirects to /login?next=/dashboard without a session', async () => {
    const response = await fetch(`${host.url}/dashboard`, { redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/login?next=%2Fdashboard');
  });

  it('/dashboard shows the signed-in account', async () => {
    const { email, sessionId, userId } = await register(host.url);
    secrets.add(sessionId);
    const response = await fetch(`${host.url}/dashboard`, { headers: cookieHeader(sessionId) });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain(email);
    // People see their address, never the machine's names for them.
    expect(html).not.toContain(userId);
    expect(html).not.toContain(sessionId);
  });

  it('/login shows both forms and an error message from a failed post', async () => {
    const response = await fetch(`${host.url}/login?error=invalid_credentials&next=/dashboard`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/text\/html/);
    const html = await response.text();
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('action="/api/auth/password/login"');
    expect(html).toContain('action="/api/auth/password/register"');
    expect(html).toContain('Invalid email or password.');
  });
});

describe('methods', () => {
  it.each([
    ['DELETE', '/api/auth/capabilities', 'GET, HEAD'],
    ['POST', '/api/auth/session', 'GET, HEAD'],
    ['POST', '/api/auth/storage/status', 'GET, HEAD'],
    ['GET', '/api/auth/password/register', 'POST'],
    ['GET', '/api/auth/password/login', 'POST'],
    ['GET', '/api/auth/logout', 'POST'],
  ])('%s %s is 405 with Allow', async (method, path, allow) => {
    const response = await fetch(`${host.url}${path}`, { method });
    expect(response.headers.get('allow')).toBe(allow);
    await expectError(response, 405, 'method_not_allowed');
  });
});

describe('logs', () => {
  it('never contain a password or a session id', () => {
    const output = host.output.join('\n');
    expect(output).toContain('"code":"auth_login"');
    for (const secret of secrets) expect(output).not.toContain(secret);
  });
});
