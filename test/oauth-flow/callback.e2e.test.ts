/**
 * The OAuth callback over HTTP against the real host and the local provider: a sign-in per
 * provider, then every way a callback must fail (ID-token knobs, tampered, reused and foreign
 * states, provider errors), each without a session cookie; and no code, state, token or secret in
 * the host's output.
 */
import { describe, expect, it } from 'vitest';
import type { Misbehaviour } from '../support/oauth-provider/server.ts';
import { authorize, deliver, eventCounts, expectFailure, expectNoSecretsLogged, OAUTH_EVENTS, PROVIDERS, sessionCookieOf, type Service, withService } from './support.ts';

let service: Service;
withService((started) => {
  service = started;
});

describe('a complete sign-in per provider', () => {
  it.each(PROVIDERS)('%s: session cookie, redirect to next, the flow events, replay → 409', async (provider) => {
    const before = await eventCounts(service.host.url);
    const callback = await authorize(service, provider, '/dashboard?from=test');
    expect(callback.method).toBe(provider === 'provider_c' ? 'POST' : 'GET');
    const response = await deliver(callback.target, callback.method, callback.params);
    expect(response.status).toBe(provider === 'provider_c' ? 303 : 302);
    expect(response.headers.get('location')).toBe('/dashboard?from=test');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const sessionId = sessionCookieOf(response)!;
    service.secretsSeen.add(sessionId);
    const session = (await (await fetch(`${service.host.url}/api/auth/session`, { headers: { cookie: `wasi_auth_dev_session=${sessionId}` } })).json()) as Record<string, unknown>;
    expect(session).toMatchObject({ authenticated: true, email: service.fixture.provider.user.email, method: `oauth:${provider}` });

    const after = await eventCounts(service.host.url);
    for (const kind of OAUTH_EVENTS) expect(after[kind], kind).toBeGreaterThan(before[kind]!);

    await expectFailure(await deliver(callback.target, callback.method, callback.params, true), 409, 'conflict', 'oauth_state_reused');
    const page = await deliver(callback.target, callback.method, callback.params);
    expect(page.status).toBe(409);
    expect(page.headers.getSetCookie()).toEqual([]);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(await page.text()).toContain('href="/login"');
  });

  it('the same person through three providers is one account with three linked providers', async () => {
    const callback = await authorize(service, 'provider_a');
    const sessionId = sessionCookieOf(await deliver(callback.target, callback.method, callback.params))!;
    const html = await (await fetch(`${service.host.url}/dashboard`, { headers: { cookie: `wasi_auth_dev_session=${sessionId}` } })).text();
    expect(html).toContain(service.fixture.provider.user.email);
    expect(html).toMatch(/id="providers" data-providers="provider_a provider_b provider_c">/);
  });
});

describe('ID tokens that must be refused', () => {
  const knobs: Array<[Misbehaviour, 'provider_a' | 'provider_c']> = [
    ['wrong_nonce', 'provider_a'],
    ['wrong_aud', 'provider_a'],
    ['wrong_iss', 'provider_c'],
    ['expired', 'provider_a'],
    ['alg_none', 'provider_c'],
    ['unknown_kid', 'provider_a'],
    ['bad_signature', 'provider_c'],
  ];
  it.each(knobs)('%s (%s) → 401 oauth_id_token_invalid, no session', async (knob, provider) => {
    const sessionsBefore = (await eventCounts(service.host.url))['auth_session_issued'];
    const callback = await authorize(service, provider);
    service.fixture.provider.misbehaveOnce(knob);
    await expectFailure(await deliver(callback.target, callback.method, callback.params, true), 401, 'unauthorized', 'oauth_id_token_invalid');
    expect((await eventCounts(service.host.url))['auth_session_issued']).toBe(sessionsBefore);
    const logged = service.host.logs().filter((l) => l['reason'] === 'oauth_id_token_invalid');
    expect(logged.at(-1)).toMatchObject({ code: 'unauthorized', provider });
  });
});

describe('states that must be refused', () => {
  it('a tampered state → 400 oauth_state_unknown; the real one still works', async () => {
    const callback = await authorize(service, 'provider_a');
    const state = callback.params['state']!;
    const tampered = `${state.slice(0, -1)}${state.endsWith('A') ? 'B' : 'A'}`;
    await expectFailure(await deliver(callback.target, 'GET', { ...callback.params, state: tampered }, true), 400, 'validation', 'oauth_state_unknown');
    const ok = await deliver(callback.target, 'GET', callback.params);
    expect(ok.status).toBe(302);
    expect(sessionCookieOf(ok)).toBeDefined();
  });

  it('HEAD neither consumes a state nor issues a session (405); GET afterwards works', async () => {
    const callback = await authorize(service, 'provider_a');
    const url = new URL(callback.target);
    for (const [k, v] of Object.entries(callback.params)) url.searchParams.set(k, v);
    const head = await fetch(url, { method: 'HEAD', redirect: 'manual' });
    expect(head.status).toBe(405);
    expect(head.headers.getSetCookie()).toEqual([]);
    expect((await fetch(`${service.host.url}/api/auth/oauth/provider_a/start`, { method: 'HEAD', redirect: 'manual' })).status).toBe(405);
    const ok = await deliver(callback.target, 'GET', callback.params);
    expect(ok.status).toBe(302);
  });

  it('a reused state → 409 conflict (two racing callbacks: one session)', async () => {
    const callback = await authorize(service, 'provider_b');
    const [first, second] = await Promise.all([deliver(callback.target, 'GET', callback.params, true), deliver(callback.target, 'GET', callback.params, true)]);
    const statuses = [first.status, second.status].sort();
    expect(statuses).toEqual([302, 409]);
    expect([first, second].filter((r) => sessionCookieOf(r)).length).toBe(1);
  });

  it("a state made for provider_a at provider_b's callback → 400 oauth_provider_mismatch", async () => {
    const callback = await authorize(service, 'provider_a');
    const other = callback.target.replace('/provider_a/', '/provider_b/');
    await expectFailure(await deliver(other, 'GET', callback.params, true), 400, 'validation', 'oauth_provider_mismatch');
  });

  it('no state, or a repeated parameter → 400 oauth_callback_malformed', async () => {
    const target = `${service.host.url}/api/auth/oauth/provider_a/callback`;
    await expectFailure(await deliver(target, 'GET', { code: 'abc' }, true), 400, 'validation', 'oauth_callback_malformed');
    const repeated = await fetch(`${target}?code=a&state=b&state=c`, { headers: { accept: 'application/json' }, redirect: 'manual' });
    await expectFailure(repeated, 400, 'validation', 'oauth_callback_malformed');
  });

  it('a provider error → 403 oauth_provider_error, and the state is burnt', async () => {
    const callback = await authorize(service, 'provider_a');
    await expectFailure(await deliver(callback.target, 'GET', { error: 'access_denied', state: callback.params['state']! }, true), 403, 'forbidden', 'oauth_provider_error');
    await expectFailure(await deliver(callback.target, 'GET', callback.params, true), 409, 'conflict', 'oauth_state_reused');
  });

  it('a code the provider refuses → 401 oauth_token_exchange_failed', async () => {
    const callback = await authorize(service, 'provider_b');
    await expectFailure(
      await deliver(callback.target, 'GET', { ...callback.params, code: 'not-a-code-the-provider-issued' }, true),
      401,
      'unauthorized',
      'oauth_token_exchange_failed',
    );
  });

  it('an unknown provider → 404 oauth_provider_not_offered', async () => {
    const response = await fetch(`${service.host.url}/api/auth/oauth/provider_z/start`, { headers: { accept: 'application/json' }, redirect: 'manual' });
    await expectFailure(response, 404, 'not_found', 'oauth_provider_not_offered');
  });
});

describe('logs', () => {
  it('every failure is logged with its code and reason; no code, state, session id or secret anywhere in the output', () => {
    const failures = service.host.logs().filter((l) => l['msg'] === 'oauth sign-in failed');
    expect(failures.length).toBeGreaterThanOrEqual(10);
    for (const line of failures) expect(line).toMatchObject({ code: expect.any(String), reason: expect.stringMatching(/^oauth_/) });
    expectNoSecretsLogged(service);
  });
});
