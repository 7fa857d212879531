/** Preflight's inspection of the login start's redirect (scripts/oauth/live/authorization-location.ts). */
import { describe, expect, it } from 'vitest';
import { inspectAuthorizationLocation, type LocationExpectations } from '../../scripts/oauth/live/authorization-location.ts';

const BASE = 'https://auth.example.com';
const STATE = 'Zq3x9PpL0s8aVb7c6D5e4F3g2H1i0J9k8L7m6N5o4P3';
const NONCE = 'nN0nce-9PpL0s8aVb7c6D5e4F3g2H1i0J9k8L7m6N5o';
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
const expectA: LocationExpectations = {
  baseUrl: BASE,
  provider: 'provider_a',
  clientId: 'client-a.apps.example',
  clientIdVariable: 'AUTH_PROVIDER_A_CLIENT_ID',
  scopes: ['openid', 'email', 'profile'],
  pkce: true,
};

function authorizeUrl(overrides: Record<string, string | null> = {}, endpoint = 'https://accounts.provider-a.example/o/oauth2/auth'): string {
  const url = new URL(endpoint);
  const params: Record<string, string | null> = {
    response_type: 'code',
    client_id: 'client-a.apps.example',
    redirect_uri: `${BASE}/api/auth/oauth/provider_a/callback`,
    scope: 'openid email profile',
    state: STATE,
    nonce: NONCE,
    code_challenge: CHALLENGE,
    code_challenge_method: 'S256',
    ...overrides,
  };
  for (const [k, v] of Object.entries(params)) if (v !== null) url.searchParams.set(k, v);
  return url.href;
}

const failures = (location: string | null, expect: LocationExpectations = expectA) =>
  inspectAuthorizationLocation(location, expect)
    .checks.filter((c) => !c.passed)
    .map((c) => c.message);

describe('inspectAuthorizationLocation', () => {
  it('passes a correct redirect to an external https endpoint, one result per rule, and reports its origin', () => {
    const inspection = inspectAuthorizationLocation(authorizeUrl(), expectA);
    expect(inspection.checks.filter((c) => !c.passed)).toEqual([]);
    expect(inspection.checks.map((c) => c.message)).toEqual([
      'the redirect is not the development callback bypass URL',
      'the authorization endpoint uses https (https://accounts.provider-a.example)',
      'the authorization endpoint is on an external host (accounts.provider-a.example)',
      'response_type is code',
      'client_id equals AUTH_PROVIDER_A_CLIENT_ID',
      'redirect_uri equals BASE_URL + /api/auth/oauth/provider_a/callback',
      'scope is "openid email profile"',
      'state is present (43 characters, not printed)',
      'nonce is present (43 characters, not printed)',
      'PKCE code_challenge is present with method S256',
    ]);
    expect(inspection.endpointOrigin).toBe('https://accounts.provider-a.example');
    // the values that must stay out of every output are handed back for redaction
    expect(inspection.sensitive).toEqual(expect.arrayContaining([STATE, NONCE, CHALLENGE, 'client-a.apps.example']));
    for (const c of inspection.checks) for (const s of inspection.sensitive) expect(c.message).not.toContain(s);
  });

  it('rejects the development callback bypass URL (relative or absolute) and stops there', () => {
    for (const location of [
      `/api/auth/oauth/provider_a/callback?code=dev-code-123456&state=${STATE}`,
      `${BASE}/api/auth/oauth/provider_a/callback?code=dev-code-123456&state=${STATE}`,
    ]) {
      const inspection = inspectAuthorizationLocation(location, expectA);
      expect(inspection.checks).toHaveLength(1);
      expect(inspection.checks[0]!.passed).toBe(false);
      expect(inspection.checks[0]!.message).toContain('development callback bypass');
      expect(inspection.sensitive).toEqual(expect.arrayContaining(['dev-code-123456', STATE]));
    }
  });

  it('rejects a redirect back to the service, naming the error code only when it is a plain code', () => {
    expect(failures('/login?error=oauth_unavailable')).toEqual(['the login start redirected back to the service (/login, error=oauth_unavailable) instead of to the provider']);
    expect(failures('/login?error=%3Cscript%3E')).toEqual(['the login start redirected back to the service (/login) instead of to the provider']);
  });

  it.each([
    ['an http endpoint', 'http://accounts.provider-a.example/auth', ['the authorization endpoint must use https (it is http://accounts.provider-a.example)']],
    [
      'a loopback endpoint',
      'https://127.0.0.1:9443/auth',
      ['the authorization endpoint must be an external host, not loopback, an IP address or a single label (it is 127.0.0.1)'],
    ],
    [
      'an http loopback endpoint',
      'http://127.0.0.1:9000/provider_a/authorize',
      [
        'the authorization endpoint must use https (it is http://127.0.0.1:9000)',
        'the authorization endpoint must be an external host, not loopback, an IP address or a single label (it is 127.0.0.1)',
      ],
    ],
    ['localhost', 'https://localhost/auth', ['the authorization endpoint must be an external host, not loopback, an IP address or a single label (it is localhost)']],
    ['an IP address', 'https://203.0.113.9/auth', ['the authorization endpoint must be an external host, not loopback, an IP address or a single label (it is 203.0.113.9)']],
    ['an IPv6 address', 'https://[2001:db8::1]/auth', ['the authorization endpoint must be an external host, not loopback, an IP address or a single label (it is [2001:db8::1])']],
  ])('rejects %s', (_name, endpoint, expected) => {
    expect(failures(authorizeUrl({}, endpoint))).toEqual(expected);
  });

  it.each([
    ['response_type missing', { response_type: null }, 'response_type must be code (it is missing)'],
    ['response_type token', { response_type: 'token' }, 'response_type must be code (it is "token")'],
    ['client_id missing', { client_id: null }, 'client_id is missing'],
    ['client_id of another app', { client_id: 'other-client' }, 'client_id differs from AUTH_PROVIDER_A_CLIENT_ID'],
    ['redirect_uri missing', { redirect_uri: null }, `redirect_uri must equal ${BASE}/api/auth/oauth/provider_a/callback byte for byte (it is missing)`],
    [
      'redirect_uri with a trailing slash',
      { redirect_uri: `${BASE}/api/auth/oauth/provider_a/callback/` },
      `redirect_uri must equal ${BASE}/api/auth/oauth/provider_a/callback byte for byte (it is ${BASE}/api/auth/oauth/provider_a/callback/)`,
    ],
    [
      'redirect_uri on http',
      { redirect_uri: 'http://auth.example.com/api/auth/oauth/provider_a/callback' },
      `redirect_uri must equal ${BASE}/api/auth/oauth/provider_a/callback byte for byte (it is http://auth.example.com/api/auth/oauth/provider_a/callback)`,
    ],
    ['scope missing', { scope: null }, 'scope is missing'],
    ['scope without openid', { scope: 'email profile' }, 'scope "email profile" must be "openid email profile"'],
    ['state missing', { state: null }, 'state is missing'],
    ['a short state', { state: 'abc123' }, 'state is too short to be unguessable (6 characters)'],
    ['nonce missing', { nonce: null }, 'nonce is missing'],
    ['PKCE missing', { code_challenge: null }, 'PKCE code_challenge with code_challenge_method=S256 is missing or malformed'],
    ['PKCE plain', { code_challenge_method: 'plain' }, 'PKCE code_challenge with code_challenge_method=S256 is missing or malformed'],
  ])('fails on %s with one line naming the rule', (_name, overrides, expected) => {
    expect(failures(authorizeUrl(overrides))).toEqual([expected]);
  });

  it('accepts scopes in any order, skips PKCE for a provider without it, and only notes client_id when none is configured', () => {
    const c: LocationExpectations = {
      ...expectA,
      provider: 'provider_c',
      clientId: undefined,
      clientIdVariable: 'AUTH_PROVIDER_C_CLIENT_ID',
      scopes: ['name', 'email'],
      pkce: false,
    };
    const url = authorizeUrl({
      scope: 'email name',
      code_challenge: null,
      code_challenge_method: null,
      redirect_uri: `${BASE}/api/auth/oauth/provider_c/callback`,
      response_mode: 'form_post',
    });
    const inspection = inspectAuthorizationLocation(url, c);
    expect(inspection.checks.filter((x) => !x.passed)).toEqual([]);
    expect(inspection.checks.map((x) => x.message)).toContain('client_id is present (AUTH_PROVIDER_C_CLIENT_ID is not set here, so not compared)');
    expect(inspection.checks.some((x) => x.message.includes('PKCE'))).toBe(false);
  });

  it('fails without a Location header', () => {
    expect(failures(null)).toEqual(['the login start answered without a usable Location header']);
  });
});
