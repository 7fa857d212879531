import { beforeEach, describe, expect, it } from 'vitest';
import { parseOAuthConfig, type ProviderSettings } from '../config.ts';
import { OAuthError } from '../errors.ts';
import { signToken, testSigner } from '../jwt/test-keys.ts';
import { OAUTH_PROVIDERS } from './index.ts';
import { clearJwksCache, jwksFor } from './jwks-cache.ts';
import { nameFromUserField } from './provider-c.ts';
import type { ProviderDeps } from './types.ts';
import { clientSecretJwt } from '../jwt/test-keys.ts';

const PRE_GENERATED = clientSecretJwt(Date.now() / 1000 + 86_400);

const BASE = 'https://auth.example.com';
const env = {
  AUTH_ENABLE_OAUTH: 'true',
  AUTH_PUBLIC_BASE_URL: BASE,
  AUTH_PROVIDER_B_ENABLED: 'true',
  AUTH_PROVIDER_B_CLIENT_ID: 'b-client',
  AUTH_PROVIDER_B_CLIENT_SECRET: 'b-secret',
  AUTH_PROVIDER_B_REDIRECT_URI: `${BASE}/api/auth/oauth/provider_b/callback`,
  AUTH_PROVIDER_C_ENABLED: 'true',
  AUTH_PROVIDER_C_CLIENT_ID: 'com.example',
  AUTH_PROVIDER_C_REDIRECT_URI: `${BASE}/api/auth/oauth/provider_c/callback`,
  AUTH_PROVIDER_C_GENERATED_CLIENT_SECRET: PRE_GENERATED,
};

/** A fetch that records requests and answers from a table of handlers. */
function fakeFetch(handlers: Record<string, (request: Request) => Response>) {
  const requests: Request[] = [];
  const deps: ProviderDeps = {
    now: () => Date.now(),
    fetch: async (input, init) => {
      const request = new Request(input, init);
      requests.push(request.clone());
      const handler = handlers[new URL(request.url).pathname];
      return handler ? handler(request) : new Response('{}', { status: 404 });
    },
  };
  return { deps, requests };
}

let b: ProviderSettings;
let c: ProviderSettings;
beforeEach(() => {
  clearJwksCache();
  const config = parseOAuthConfig(env);
  b = config.providers.provider_b.settings!;
  c = config.providers.provider_c.settings!;
});

describe('token exchange', () => {
  it('posts the code with client_secret_post and the PKCE verifier, then reads user-info with the bearer token', async () => {
    const { deps, requests } = fakeFetch({
      '/v21.0/oauth/access_token': () => Response.json({ access_token: 'at-1', token_type: 'bearer' }),
      '/v21.0/me': () => Response.json({ id: 42, name: 'N', email: 'e@x.test' }),
    });
    const identity = await OAUTH_PROVIDERS.provider_b.signIn(b, { code: 'code-1', nonce: 'n', codeVerifier: 'v-1' }, deps);
    expect(identity).toEqual({ provider: 'provider_b', subject: '42', email: 'e@x.test', emailVerified: false, name: 'N' });
    const form = new URLSearchParams(await requests[0]!.text());
    expect(requests[0]!.method).toBe('POST');
    expect(requests[0]!.headers.get('content-type')).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(form)).toEqual({
      grant_type: 'authorization_code',
      code: 'code-1',
      redirect_uri: `${BASE}/api/auth/oauth/provider_b/callback`,
      client_id: 'b-client',
      client_secret: 'b-secret',
      code_verifier: 'v-1',
    });
    expect(requests[1]!.headers.get('authorization')).toBe('Bearer at-1');
  });

  it('maps a refused code, a malformed response and a missing ID token to typed errors', async () => {
    const cases: Array<[Response, string, string]> = [
      [Response.json({ error: 'invalid_grant' }, { status: 400 }), 'token_exchange_failed', 'http_status'],
      [new Response('not json'), 'token_exchange_failed', 'response_shape'],
      [Response.json({ access_token: 'at' }), 'token_exchange_failed', 'response_shape'],
    ];
    for (const [response, code, reason] of cases) {
      const { deps } = fakeFetch({ '/auth/token': () => response });
      const error = await OAUTH_PROVIDERS.provider_c.signIn(c, { code: 'x', nonce: 'n' }, deps).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OAuthError);
      expect([(error as OAuthError).code, (error as OAuthError).reason]).toEqual([code, reason]);
    }
  });
});

describe('jwksFor()', () => {
  it('caches the key set and refetches once for an unknown kid, at most once a minute', async () => {
    const signer = await testSigner('RS256', 'new-key');
    let served = 0;
    const { deps } = fakeFetch({ '/jwks': () => (served++, Response.json({ keys: [signer.publicJwk] })) });
    let now = 1_000_000;
    const at = { ...deps, now: () => now };
    const token = await signToken(signer, { sub: 's' });
    await jwksFor('https://p.test/jwks', token, at);
    await jwksFor('https://p.test/jwks', token, at);
    expect(served).toBe(1);
    const rotated = await signToken(signer, { sub: 's' }, { kid: 'rotated' });
    await jwksFor('https://p.test/jwks', rotated, at);
    expect(served).toBe(1); // within a minute: no refetch storm
    now += 61_000;
    await jwksFor('https://p.test/jwks', rotated, at);
    expect(served).toBe(2);
    now += 11 * 60_000;
    await jwksFor('https://p.test/jwks', token, at);
    expect(served).toBe(3); // stale after ten minutes
  });
});

describe('provider_c', () => {
  it('asks for a form post only when it requests name or email', () => {
    expect(OAUTH_PROVIDERS.provider_c.responseMode(c)).toBe('form_post');
    expect(OAUTH_PROVIDERS.provider_c.responseMode({ ...c, scopes: ['openid'] })).toBe('query');
    expect(new URL(OAUTH_PROVIDERS.provider_c.authorizationUrl({ ...c, scopes: ['openid'] }, { state: 's', nonce: 'n' })).searchParams.has('response_mode')).toBe(false);
  });

  it('reads the name from a well-formed user field only', () => {
    expect(nameFromUserField('{"name":{"firstName":"Ada","lastName":"Lovelace"},"email":"x@y"}')).toBe('Ada Lovelace');
    for (const bad of [undefined, '', 'not json', '{"name":"Ada"}', '{"name":{"firstName":5}}', '{}']) expect(nameFromUserField(bad)).toBeUndefined();
  });

  it('sends the pre-generated client secret as is', async () => {
    const { deps, requests } = fakeFetch({ '/auth/token': () => Response.json({}, { status: 401 }) });
    await OAUTH_PROVIDERS.provider_c.signIn(c, { code: 'x', nonce: 'n' }, deps).catch(() => undefined);
    expect(new URLSearchParams(await requests[0]!.text()).get('client_secret')).toBe(PRE_GENERATED);
  });
});

describe('clientSecretFor()', () => {
  it('signs provider_c secrets once and shares them through the cache until the refresh margin', async () => {
    const { clientSecretFor } = await import('./client-secret.ts');
    const signer = await testSigner('ES256', 'KEY1');
    const settings: ProviderSettings = { ...c, clientAuthentication: { kind: 'signed_jwt', teamId: 'TEAM1', keyId: 'KEY1', privateKeyPem: signer.pkcs8 } };
    const store = new Map<string, { value: string; ttlMs: number }>();
    const cache = { get: (k: string) => store.get(k)?.value, set: (k: string, value: string, ttlMs: number) => void store.set(k, { value, ttlMs }) };
    const now = 1_800_000_000_000;
    const first = clientSecretFor(settings, now, cache);
    expect([...store.values()]).toEqual([{ value: first, ttlMs: 240_000 }]);
    store.set([...store.keys()][0]!, { value: 'shared-by-another-instance', ttlMs: 1 });
    expect(clientSecretFor(settings, now + 1000, cache)).toBe('shared-by-another-instance');
    expect(clientSecretFor(b, now)).toBe('b-secret');
  });
});
