/**
 * The provider modules (src/auth/oauth/providers) end to end from Node against the local OAuth
 * provider: authorization URL → provider approves → code exchange → ID token / user-info.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseOAuthConfig, type ProviderSettings } from '../../src/auth/oauth/config.ts';
import { OAuthError } from '../../src/auth/oauth/errors.ts';
import { prepareAuthorization } from '../../src/auth/oauth/prepare-authorization.ts';
import { randomToken } from '../../src/auth/oauth/random-tokens.ts';
import { clearJwksCache } from '../../src/auth/oauth/providers/jwks-cache.ts';
import { defaultDeps, OAUTH_PROVIDERS } from '../../src/auth/oauth/providers/index.ts';
import type { ProviderId } from '../../src/auth/oauth/provider-ids.ts';
import { startOAuthFixture, type OAuthFixture } from '../support/oauth-provider/fixture.ts';
import { followAuthorization } from '../support/oauth-provider/follow-authorization.ts';
import type { Misbehaviour } from '../support/oauth-provider/server.ts';

const BASE = 'http://127.0.0.1:39999';
let fixture: OAuthFixture;
let settings: Record<ProviderId, ProviderSettings>;

beforeAll(async () => {
  fixture = await startOAuthFixture(BASE);
  const config = parseOAuthConfig(fixture.env);
  settings = Object.fromEntries(config.offered.map((id) => [id, config.providers[id].settings!])) as Record<ProviderId, ProviderSettings>;
});
afterAll(() => fixture.provider.stop());
beforeEach(() => clearJwksCache());

async function signIn(id: ProviderId, tweak: { verifier?: string; secret?: string } = {}) {
  const prepared = prepareAuthorization(settings[id], randomToken());
  const callback = await followAuthorization(prepared.url);
  expect(callback.target).toBe(`${BASE}/api/auth/oauth/${id}/callback`);
  expect(callback.params.state).toBe(prepared.state);
  const s = tweak.secret ? { ...settings[id], clientAuthentication: { kind: 'client_secret' as const, secret: tweak.secret } } : settings[id];
  return OAUTH_PROVIDERS[id].signIn(
    s,
    {
      code: callback.params.code!,
      nonce: prepared.nonce,
      ...(prepared.codeVerifier ? { codeVerifier: tweak.verifier ?? prepared.codeVerifier } : {}),
      ...(callback.params.user ? { user: callback.params.user } : {}),
    },
    defaultDeps,
  );
}

async function failure(run: () => Promise<unknown>): Promise<OAuthError> {
  const error = await run().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OAuthError);
  return error as OAuthError;
}

describe('authorization URLs', () => {
  it.each([['provider_a'], ['provider_b']] as const)('%s: code flow with state, nonce and an S256 PKCE challenge', (id) => {
    const url = new URL(prepareAuthorization(settings[id], randomToken()).url);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: settings[id].clientId,
      redirect_uri: settings[id].redirectUri,
      scope: settings[id].scopes.join(' '),
      code_challenge_method: 'S256',
    });
    for (const p of ['state', 'nonce', 'code_challenge']) expect(url.searchParams.get(p)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('provider_c: form_post when asking for name/email, no PKCE', () => {
    const prepared = prepareAuthorization(settings.provider_c, randomToken());
    const url = new URL(prepared.url);
    expect(url.searchParams.get('response_mode')).toBe('form_post');
    expect(url.searchParams.get('scope')).toBe('name email');
    expect(url.searchParams.has('code_challenge')).toBe(false);
    expect(prepared.responseMode).toBe('form_post');
    expect(prepared.codeVerifier).toBeUndefined();
  });
});

describe('sign-in against the local provider', () => {
  it('provider_a: verifies the RS256 ID token and returns the identity', async () => {
    expect(await signIn('provider_a')).toEqual({ provider: 'provider_a', subject: 'test-user-1', email: 'person@example.test', emailVerified: true, name: 'Test Person' });
  });

  it('provider_b: reads the profile from user-info with the access token', async () => {
    expect(await signIn('provider_b')).toEqual({ provider: 'provider_b', subject: 'test-user-1', email: 'person@example.test', emailVerified: true, name: 'Test Person' });
  });

  it('provider_c: authenticates with a signed client-secret JWT, verifies the ES256 ID token, takes the name from the form post', async () => {
    expect(await signIn('provider_c')).toEqual({ provider: 'provider_c', subject: 'test-user-1', email: 'person@example.test', emailVerified: true, name: 'Test Person' });
    expect(fixture.provider.tokenRequests.at(-1)).toEqual({ provider: 'provider_c', status: 200 });
  });

  it.each([
    ['wrong_nonce', 'nonce'],
    ['wrong_aud', 'audience'],
    ['wrong_iss', 'issuer'],
    ['expired', 'expired'],
    ['alg_none', 'alg_none'],
    ['unknown_kid', 'unknown_kid'],
    ['bad_signature', 'bad_signature'],
  ] as const)('refuses an ID token with %s', async (knob: Misbehaviour, reason) => {
    for (const id of ['provider_a', 'provider_c'] as const) {
      fixture.provider.misbehaveOnce(knob);
      const error = await failure(() => signIn(id));
      expect(error.code).toBe('id_token_invalid');
      expect(error.reason).toBe(reason);
    }
  });

  it('refuses a wrong client secret (the provider answers 401)', async () => {
    const error = await failure(() => signIn('provider_a', { secret: 'wrong' }));
    expect([error.code, error.reason, error.status]).toEqual(['token_exchange_failed', 'http_status', 401]);
  });

  it('refuses a provider_c client-secret JWT signed with another key', async () => {
    const { generateKeyPair, exportPKCS8 } = await import('jose');
    const other = await exportPKCS8((await generateKeyPair('ES256', { extractable: true })).privateKey);
    const original = settings.provider_c;
    settings.provider_c = { ...original, clientAuthentication: { kind: 'signed_jwt', teamId: 'TEAMC12345', keyId: 'KEYC12345', privateKeyPem: other } };
    try {
      const error = await failure(() => signIn('provider_c'));
      expect([error.code, error.status]).toEqual(['token_exchange_failed', 401]);
    } finally {
      settings.provider_c = original;
    }
  });

  it('refuses a wrong PKCE verifier (the provider answers invalid_grant)', async () => {
    const error = await failure(() => signIn('provider_b', { verifier: 'x'.repeat(43) }));
    expect([error.code, error.status]).toEqual(['token_exchange_failed', 400]);
  });

  it('reports an unreachable token endpoint as a network failure', async () => {
    const dead = { ...settings.provider_a, endpoints: { ...settings.provider_a.endpoints, tokenUrl: 'http://127.0.0.1:1/token' } };
    const error = await failure(() => OAUTH_PROVIDERS.provider_a.signIn(dead, { code: 'c', nonce: 'n', codeVerifier: 'v' }, defaultDeps));
    expect([error.code, error.reason]).toEqual(['token_exchange_failed', 'network']);
  });
});
