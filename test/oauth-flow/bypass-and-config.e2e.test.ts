/**
 * Without a provider: the development callback bypass (state creation, replay, provider mismatch,
 * open-redirect attempts), the offered-provider rule (a provider switched off is absent from
 * capabilities and /login, and its start is refused), and the start-up refusals (both provider_c
 * secret sources; the bypass on a secure deployment; a provider switched on without a credential,
 * test/e2e/oauth-provider-incomplete.e2e.test.ts) as exit code 2 naming variables.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, runHostCli, tempDataDir } from '../../harness/host-process.ts';
import { PASSWORD, postForm, register, sessionIdFrom } from '../auth/support.ts';
import { asBrowser, deliver, eventCounts, expectFailure, expectNoSecretsLogged, sessionCookieOf, start, startService, type Service } from './support.ts';

describe('development callback bypass', () => {
  let service: Service;
  beforeAll(async () => {
    // provider_b is switched off: not offered, even with the bypass.
    service = await startService({ AUTH_OAUTH_DEVELOPMENT_CALLBACK_BYPASS: 'true', AUTH_PROVIDER_B_ENABLED: 'false' });
  }, 90_000);
  afterAll(async () => {
    await service?.stop();
  });

  it('start goes straight to our callback with a development code; the callback signs in the development identity', async () => {
    const before = await eventCounts(service.host.url);
    const location = await start(service, 'provider_a', '/dashboard');
    const url = new URL(location);
    expect(url.origin).toBe(service.host.url);
    expect(url.pathname).toBe('/api/auth/oauth/provider_a/callback');
    expect(url.searchParams.get('code')).toBe('development-callback-bypass');
    const response = await asBrowser(location, { redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/dashboard');
    const sessionId = sessionCookieOf(response)!;
    service.secretsSeen.add(sessionId);
    const session = (await (await fetch(`${service.host.url}/api/auth/session`, { headers: { cookie: `wasi_auth_dev_session=${sessionId}` } })).json()) as Record<string, unknown>;
    expect(session).toMatchObject({ authenticated: true, email: 'oauth-developer@example.com', method: 'oauth:provider_a' });
    const after = await eventCounts(service.host.url);
    // The state lived in key-value: start and callback wrote no event for it.
    expect(after['auth_oauth_state_created'] ?? 0).toBe(0);
    expect(after['auth_session_issued']).toBe(before['auth_session_issued']! + 1);
    // no provider was asked
    expect(service.fixture.provider.tokenRequests).toEqual([]);

    await expectFailure(await asBrowser(location, { headers: { accept: 'application/json' }, redirect: 'manual' }), 409, 'conflict', 'oauth_state_reused');
  });

  it("provider mismatch: a provider_c state at provider_a's callback → 400", async () => {
    const location = new URL(await start(service, 'provider_c'));
    const other = location.href.replace('/provider_c/', '/provider_a/');
    await expectFailure(await asBrowser(other, { headers: { accept: 'application/json' }, redirect: 'manual' }), 400, 'validation', 'oauth_provider_mismatch');
  });

  it('the development code is refused for a state the bypass did not make', async () => {
    const target = `${service.host.url}/api/auth/oauth/provider_a/callback`;
    await expectFailure(
      await deliver(target, 'GET', { code: 'development-callback-bypass', state: 'made-up-state-value-0123456789' }, true),
      400,
      'validation',
      'oauth_state_unknown',
    );
  });

  const attempts = [
    '//evil.example/x',
    'https://evil.example/',
    'http:evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    '/%2F%2Fevil.example',
    '%2F%2Fevil.example',
    '/%5Cevil.example',
    '/%252F%252Fevil.example',
    'javascript:alert(1)',
    '/\tevil',
    ' //evil.example',
    // dot segments that normalise to `//evil.example/x` (an open redirect if only the input were checked)
    '/.//evil.example/x',
    '/%2e//evil.example/x',
    '/a/..//evil.example/x',
    '/a/%2E%2E//evil.example/x',
    '/./\\evil.example/x',
  ];
  it.each(attempts)('next=%j lands on /dashboard', async (next) => {
    const location = await start(service, 'provider_a', next);
    const response = await asBrowser(location, { redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/dashboard');
  });

  it.each(attempts)('the password form: next=%j lands on /dashboard (login) and stays out of /login?next', async (next) => {
    const { email } = await register(service.host.url);
    const ok = await postForm(service.host.url, '/api/auth/password/login', { email, password: PASSWORD, next });
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe('/dashboard');
    service.secretsSeen.add(sessionIdFrom(ok)!);
    const failed = await postForm(service.host.url, '/api/auth/password/login', { email, password: 'a wrong password here', next });
    expect(new URL(failed.headers.get('location')!, service.host.url).searchParams.get('next')).toBe('/dashboard');
  });

  it('a same-site next survives', async () => {
    const response = await asBrowser(await start(service, 'provider_a', '/dashboard?tab=providers#top'), { redirect: 'manual' });
    expect(response.headers.get('location')).toBe('/dashboard?tab=providers#top');
  });

  it('a provider switched off is absent from capabilities and /login, and its start is refused', async () => {
    const capabilities = (await (await fetch(`${service.host.url}/api/auth/capabilities`)).json()) as { oauth: { providers: Array<{ id: string; start: string }> } };
    expect(capabilities.oauth.providers.map((p) => p.id)).toEqual(['provider_a', 'provider_c']);
    expect(capabilities.oauth.providers[0]!.start).toBe('/api/auth/oauth/provider_a/start');
    const login = await (await fetch(`${service.host.url}/login`)).text();
    expect(login).toContain('data-provider="provider_a"');
    expect(login).toContain('data-provider="provider_c"');
    expect(login).not.toContain('data-provider="provider_b"');
    const refused = await fetch(`${service.host.url}/api/auth/oauth/provider_b/start`, { headers: { accept: 'application/json' }, redirect: 'manual' });
    await expectFailure(refused, 404, 'not_found', 'oauth_provider_not_offered');
    const page = await fetch(`${service.host.url}/api/auth/oauth/provider_b/start`, { redirect: 'manual' });
    expect(page.status).toBe(404);
    expect(await page.text()).toContain('href="/login"');
  });

  it('no state or session id in the output', () => {
    expectNoSecretsLogged(service);
  });
});

describe('OAuth off', () => {
  it('no provider is offered and every start is refused', async () => {
    const service = await startService({ AUTH_ENABLE_OAUTH: 'false' });
    try {
      const capabilities = (await (await fetch(`${service.host.url}/api/auth/capabilities`)).json()) as { oauth: { providers: unknown[] } };
      expect(capabilities.oauth.providers).toEqual([]);
      for (const id of ['provider_a', 'provider_b', 'provider_c']) {
        await expectFailure(
          await fetch(`${service.host.url}/api/auth/oauth/${id}/start`, { headers: { accept: 'application/json' }, redirect: 'manual' }),
          404,
          'not_found',
          'oauth_provider_not_offered',
        );
      }
    } finally {
      await service.stop();
    }
  }, 90_000);
});

describe('start-up refusals (exit code 2, variables named, values never)', () => {
  const base = (port: number) => ({
    AUTH_ENABLE_OAUTH: 'true',
    AUTH_PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    AUTH_PROVIDER_C_ENABLED: 'true',
    AUTH_PROVIDER_C_CLIENT_ID: 'com.example.client-c',
    AUTH_PROVIDER_C_REDIRECT_URI: `http://127.0.0.1:${port}/api/auth/oauth/provider_c/callback`,
  });

  it('both provider_c client-secret sources', async () => {
    const port = await freePort();
    const secret = `pre-generated-${crypto.randomUUID()}`;
    const key = `key-material-${crypto.randomUUID()}`;
    const { code, output } = await runHostCli(['--port', String(port), '--data-dir', tempDataDir()], {
      ...base(port),
      AUTH_PROVIDER_C_TEAM_ID: 'TEAMC12345',
      AUTH_PROVIDER_C_KEY_ID: 'KEYC12345',
      AUTH_PROVIDER_C_PRIVATE_KEY: key,
      AUTH_PROVIDER_C_GENERATED_CLIENT_SECRET: secret,
    });
    expect(code).toBe(2);
    expect(output).toContain('"code":"config_invalid"');
    for (const name of ['AUTH_PROVIDER_C_TEAM_ID', 'AUTH_PROVIDER_C_KEY_ID', 'AUTH_PROVIDER_C_PRIVATE_KEY', 'AUTH_PROVIDER_C_GENERATED_CLIENT_SECRET'])
      expect(output).toContain(name);
    expect(output).not.toContain(secret);
    expect(output).not.toContain(key);
    expect(output).not.toContain('"code":"host_listening"');
  }, 60_000);

  it('the bypass with AUTH_COOKIE_SECURE=true', async () => {
    const port = await freePort();
    const { code, output } = await runHostCli(['--port', String(port), '--data-dir', tempDataDir()], {
      AUTH_OAUTH_DEVELOPMENT_CALLBACK_BYPASS: 'true',
      AUTH_COOKIE_SECURE: 'true',
      AUTH_PUBLIC_BASE_URL: 'https://localhost:8443',
    });
    expect(code).toBe(2);
    expect(output).toMatch(/AUTH_OAUTH_DEVELOPMENT_CALLBACK_BYPASS is refused with AUTH_COOKIE_SECURE=true/);
  }, 60_000);

  it('the bypass on a host listening beyond loopback (--host 0.0.0.0)', async () => {
    const port = await freePort();
    const { code, output } = await runHostCli(['--host', '0.0.0.0', '--port', String(port), '--data-dir', tempDataDir()], {
      AUTH_OAUTH_DEVELOPMENT_CALLBACK_BYPASS: 'true',
      AUTH_PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    });
    expect(code).toBe(2);
    expect(output).toMatch(/AUTH_OAUTH_DEVELOPMENT_CALLBACK_BYPASS is refused unless the host listens on a loopback address only/);
    expect(output).not.toContain('"code":"host_listening"');
  }, 60_000);

  it('the bypass with a non-local https base', async () => {
    const port = await freePort();
    const { code, output } = await runHostCli(['--port', String(port), '--data-dir', tempDataDir()], {
      AUTH_OAUTH_DEVELOPMENT_CALLBACK_BYPASS: 'true',
      AUTH_PUBLIC_BASE_URL: 'https://auth.example.com',
    });
    expect(code).toBe(2);
    expect(output).toMatch(/AUTH_OAUTH_DEVELOPMENT_CALLBACK_BYPASS is refused when AUTH_PUBLIC_BASE_URL is a non-local https URL/);
  }, 60_000);
});
