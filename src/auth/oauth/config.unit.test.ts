import { describe, expect, it } from 'vitest';
import { OAuthConfigError, parseOAuthConfig } from './config.ts';
import { clientSecretJwt } from './jwt/test-keys.ts';

const BASE = 'https://auth.example.com';
const providerA = {
  AUTH_PROVIDER_A_ENABLED: 'true',
  AUTH_PROVIDER_A_CLIENT_ID: 'a-client',
  AUTH_PROVIDER_A_CLIENT_SECRET: 'a-secret-value',
  AUTH_PROVIDER_A_REDIRECT_URI: `${BASE}/api/auth/oauth/provider_a/callback`,
};
const providerB = {
  AUTH_PROVIDER_B_ENABLED: 'true',
  AUTH_PROVIDER_B_CLIENT_ID: 'b-client',
  AUTH_PROVIDER_B_CLIENT_SECRET: 'b-secret-value',
  AUTH_PROVIDER_B_REDIRECT_URI: `${BASE}/api/auth/oauth/provider_b/callback`,
};
const providerCKey = {
  AUTH_PROVIDER_C_ENABLED: 'true',
  AUTH_PROVIDER_C_CLIENT_ID: 'com.example.web',
  AUTH_PROVIDER_C_REDIRECT_URI: `${BASE}/api/auth/oauth/provider_c/callback`,
  AUTH_PROVIDER_C_TEAM_ID: 'TEAM123',
  AUTH_PROVIDER_C_KEY_ID: 'KEY456',
  AUTH_PROVIDER_C_PRIVATE_KEY: '-----BEGIN PRIVATE KEY-----\\nc-private-key-value\\n-----END PRIVATE KEY-----',
};
const on = { AUTH_ENABLE_OAUTH: 'true', AUTH_PUBLIC_BASE_URL: BASE, AUTH_COOKIE_SECURE: 'true' };
const all = { ...on, ...providerA, ...providerB, ...providerCKey };
const SECRETS = ['a-secret-value', 'b-secret-value', 'c-private-key-value', 'pre-generated-value'];

function configError(env: Record<string, string>): OAuthConfigError {
  try {
    parseOAuthConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(OAuthConfigError);
    for (const secret of SECRETS) expect((error as Error).message).not.toContain(secret);
    return error as OAuthConfigError;
  }
  throw new Error('expected a configuration error');
}

describe('parseOAuthConfig()', () => {
  it('is off by default and offers nothing', () => {
    const config = parseOAuthConfig({});
    expect(config).toMatchObject({ enabled: false, cookieSecure: false, developmentCallbackBypass: false, offered: [] });
  });

  it('offers every enabled, credentialed provider with defaults for endpoints and scopes', () => {
    const config = parseOAuthConfig(all);
    expect(config.offered).toEqual(['provider_a', 'provider_b', 'provider_c']);
    expect(config.providers.provider_a.settings).toMatchObject({
      clientId: 'a-client',
      scopes: ['openid', 'email', 'profile'],
      endpoints: { authorizationUrl: 'https://accounts.google.com/o/oauth2/v2/auth', issuer: 'https://accounts.google.com' },
      clientAuthentication: { kind: 'client_secret', secret: 'a-secret-value' },
    });
    expect(config.providers.provider_b.settings?.scopes).toEqual(['email', 'public_profile']);
    expect(config.providers.provider_b.settings?.endpoints.userInfoUrl).toMatch(/^https:\/\/graph\./);
    expect(config.providers.provider_c.settings?.clientAuthentication).toMatchObject({ kind: 'signed_jwt', teamId: 'TEAM123', keyId: 'KEY456' });
  });

  it('reads a Map (the component environment) as well as a record', () => {
    expect(parseOAuthConfig(new Map(Object.entries(all))).offered).toHaveLength(3);
  });

  it('offers nothing while AUTH_ENABLE_OAUTH is off, even with providers enabled', () => {
    expect(parseOAuthConfig({ ...all, AUTH_ENABLE_OAUTH: 'false' }).offered).toEqual([]);
  });

  it('leaves out a provider that is not enabled', () => {
    expect(parseOAuthConfig({ ...all, AUTH_PROVIDER_B_ENABLED: 'false' }).offered).toEqual(['provider_a', 'provider_c']);
  });

  it.each([['AUTH_PROVIDER_A_CLIENT_ID'], ['AUTH_PROVIDER_A_CLIENT_SECRET'], ['AUTH_PROVIDER_A_REDIRECT_URI']])('leaves out provider_a without %s and names it', (name) => {
    const config = parseOAuthConfig({ ...all, [name]: '' });
    expect(config.offered).toEqual(['provider_b', 'provider_c']);
    expect(config.providers.provider_a.missing).toEqual([name]);
  });

  it('accepts the pre-generated provider_c secret instead of the key', () => {
    const { AUTH_PROVIDER_C_TEAM_ID: _t, AUTH_PROVIDER_C_KEY_ID: _k, AUTH_PROVIDER_C_PRIVATE_KEY: _p, ...rest } = all;
    const secret = clientSecretJwt(Date.now() / 1000 + 3600);
    const config = parseOAuthConfig({ ...rest, AUTH_PROVIDER_C_GENERATED_CLIENT_SECRET: secret });
    expect(config.providers.provider_c.settings?.clientAuthentication).toEqual({ kind: 'pre_generated_jwt', secret });
  });

  it.each([
    ['past its exp', clientSecretJwt(Date.now() / 1000 - 1), 'has expired'],
    ['without exp', clientSecretJwt(undefined), 'has no exp claim'],
    ['not a JWT', 'pre-generated-value', 'must be the signed client-secret JWT'],
  ])('refuses a pre-generated provider_c secret %s, naming the variable, not the value (an expired secret fails at start, not at every sign-in)', (_name, secret, problem) => {
    const { AUTH_PROVIDER_C_TEAM_ID: _t, AUTH_PROVIDER_C_KEY_ID: _k, AUTH_PROVIDER_C_PRIVATE_KEY: _p, ...rest } = all;
    const error = configError({ ...rest, AUTH_PROVIDER_C_GENERATED_CLIENT_SECRET: secret });
    expect(error.variables).toEqual(['AUTH_PROVIDER_C_GENERATED_CLIENT_SECRET']);
    expect(error.message).toContain(problem);
    expect(error.message).not.toContain(secret);
  });

  it('refuses both provider_c secret sources, naming the variables (even while provider_c is off)', () => {
    for (const enabled of ['true', 'false']) {
      const error = configError({ ...all, AUTH_PROVIDER_C_ENABLED: enabled, AUTH_PROVIDER_C_GENERATED_CLIENT_SECRET: 'pre-generated-value' });
      expect(error.message).toContain('AUTH_PROVIDER_C_TEAM_ID, AUTH_PROVIDER_C_KEY_ID, AUTH_PROVIDER_C_PRIVATE_KEY and AUTH_PROVIDER_C_GENERATED_CLIENT_SECRET');
      expect(error.message).toContain('set exactly one');
    }
  });

  it('refuses an enabled provider_c with neither source, naming both', () => {
    const { AUTH_PROVIDER_C_TEAM_ID: _t, AUTH_PROVIDER_C_KEY_ID: _k, AUTH_PROVIDER_C_PRIVATE_KEY: _p, ...rest } = all;
    const error = configError(rest);
    expect(error.variables).toEqual(['AUTH_PROVIDER_C_TEAM_ID + AUTH_PROVIDER_C_KEY_ID + AUTH_PROVIDER_C_PRIVATE_KEY or AUTH_PROVIDER_C_GENERATED_CLIENT_SECRET']);
  });

  it('refuses a partial provider_c key source, naming what is missing', () => {
    expect(configError({ ...all, AUTH_PROVIDER_C_KEY_ID: '' }).variables).toEqual(['AUTH_PROVIDER_C_KEY_ID']);
  });

  it.each([
    ['a trailing slash', `${BASE}/api/auth/oauth/provider_a/callback/`],
    ['another host', 'https://other.example.com/api/auth/oauth/provider_a/callback'],
    ['http instead of https', 'http://auth.example.com/api/auth/oauth/provider_a/callback'],
    ['another provider path', `${BASE}/api/auth/oauth/provider_b/callback`],
    ['different case', `${BASE}/api/auth/oauth/PROVIDER_A/callback`],
    ['a query', `${BASE}/api/auth/oauth/provider_a/callback?x=1`],
  ])('refuses a redirect URI with %s (byte-for-byte rule)', (_name, uri) => {
    const error = configError({ ...all, AUTH_PROVIDER_A_REDIRECT_URI: uri });
    expect(error.variables).toEqual(['AUTH_PROVIDER_A_REDIRECT_URI']);
    expect(error.message).toContain('/api/auth/oauth/provider_a/callback, byte for byte');
  });

  it('compares redirect URIs against the base without its trailing slash', () => {
    expect(parseOAuthConfig({ ...all, AUTH_PUBLIC_BASE_URL: `${BASE}/` }).offered).toHaveLength(3);
  });

  it('requires AUTH_PUBLIC_BASE_URL when OAuth is on, as an origin, https when cookies are secure', () => {
    const { AUTH_PUBLIC_BASE_URL: _b, ...noBase } = all;
    expect(configError(noBase).variables).toEqual(['AUTH_PUBLIC_BASE_URL']);
    expect(configError({ ...all, AUTH_PUBLIC_BASE_URL: `${BASE}/app` }).variables).toEqual(['AUTH_PUBLIC_BASE_URL']);
    expect(configError({ ...all, AUTH_PUBLIC_BASE_URL: 'not a url' }).variables).toEqual(['AUTH_PUBLIC_BASE_URL']);
    expect(configError({ ...on, AUTH_PUBLIC_BASE_URL: 'http://127.0.0.1:3000' }).variables).toEqual(['AUTH_PUBLIC_BASE_URL']);
    expect(configError({ ...on, AUTH_PUBLIC_BASE_URL: 'http://auth.example.com', AUTH_COOKIE_SECURE: 'false' }).message).toContain('must use https');
  });

  it('allows a local http base for development when cookies are not secure', () => {
    const local = 'http://127.0.0.1:3000';
    const config = parseOAuthConfig({
      ...on,
      AUTH_COOKIE_SECURE: 'false',
      AUTH_PUBLIC_BASE_URL: local,
      ...providerA,
      AUTH_PROVIDER_A_REDIRECT_URI: `${local}/api/auth/oauth/provider_a/callback`,
    });
    expect(config.offered).toEqual(['provider_a']);
  });

  it.each([['AUTH_ENABLE_OAUTH'], ['AUTH_COOKIE_SECURE'], ['AUTH_PROVIDER_B_ENABLED'], ['AUTH_OAUTH_DEVELOPMENT_CALLBACK_BYPASS']])('refuses a non-boolean %s', (name) => {
    const error = configError({ ...all, [name]: 'yes' });
    expect(error.variables).toContain(name);
    expect(error.message).toContain(`${name} must be true or false`);
  });

  it.each([
    ['AUTH_PROVIDER_A_AUTHORIZATION_URL', 'not-a-url'],
    ['AUTH_PROVIDER_A_TOKEN_URL', 'http://tokens.example.com/token'],
    ['AUTH_PROVIDER_A_JWKS_URL', 'ftp://keys.example.com'],
    ['AUTH_PROVIDER_A_ISSUER', 'issuer'],
    ['AUTH_PROVIDER_B_USERINFO_URL', 'nope'],
    ['AUTH_PROVIDER_C_JWKS_URL', 'nope'],
  ])('refuses a malformed endpoint override %s', (name, value) => {
    expect(configError({ ...all, [name]: value }).variables).toEqual([name]);
  });

  it('uses endpoint overrides (loopback http allowed, as the test provider needs)', () => {
    const local = 'http://127.0.0.1:9999';
    const config = parseOAuthConfig({
      ...all,
      AUTH_PROVIDER_A_AUTHORIZATION_URL: `${local}/a/authorize`,
      AUTH_PROVIDER_A_TOKEN_URL: `${local}/a/token`,
      AUTH_PROVIDER_A_JWKS_URL: `${local}/a/jwks`,
      AUTH_PROVIDER_A_ISSUER: `${local}/a`,
      AUTH_PROVIDER_B_USERINFO_URL: `${local}/b/me`,
    });
    expect(config.providers.provider_a.settings?.endpoints).toEqual({
      authorizationUrl: `${local}/a/authorize`,
      tokenUrl: `${local}/a/token`,
      jwksUrl: `${local}/a/jwks`,
      issuer: `${local}/a`,
    });
    expect(config.providers.provider_b.settings?.endpoints.userInfoUrl).toBe(`${local}/b/me`);
  });

  it('requires openid among provider_a scopes and well-formed scope tokens', () => {
    expect(configError({ ...all, AUTH_PROVIDER_A_SCOPES: 'email profile' }).message).toContain('AUTH_PROVIDER_A_SCOPES must include openid');
    expect(configError({ ...all, AUTH_PROVIDER_B_SCOPES: 'email "x"' }).variables).toEqual(['AUTH_PROVIDER_B_SCOPES']);
  });

  describe('AUTH_OAUTH_DEVELOPMENT_CALLBACK_BYPASS', () => {
    it('is accepted locally (http loopback base, cookies not secure)', () => {
      const config = parseOAuthConfig({
        AUTH_ENABLE_OAUTH: 'true',
        AUTH_PUBLIC_BASE_URL: 'http://localhost:3000',
        AUTH_COOKIE_SECURE: 'false',
        AUTH_OAUTH_DEVELOPMENT_CALLBACK_BYPASS: 'true',
        APP_LISTEN_LOOPBACK_ONLY: 'true',
      });
      expect(config.developmentCallbackBypass).toBe(true);
    });
    it.each([['false'], [undefined]])('is refused unless the host listens on loopback only (APP_LISTEN_LOOPBACK_ONLY=%s): no fixed identity for another machine', (loopback) => {
      const env = {
        AUTH_ENABLE_OAUTH: 'true',
        AUTH_PUBLIC_BASE_URL: 'http://localhost:3000',
        AUTH_OAUTH_DEVELOPMENT_CALLBACK_BYPASS: 'true',
        ...(loopback ? { APP_LISTEN_LOOPBACK_ONLY: loopback } : {}),
      };
      expect(configError(env).message).toContain('AUTH_OAUTH_DEVELOPMENT_CALLBACK_BYPASS is refused unless the host listens on a loopback address only');
    });
    it('is refused with AUTH_COOKIE_SECURE=true', () => {
      const error = configError({ AUTH_COOKIE_SECURE: 'true', AUTH_OAUTH_DEVELOPMENT_CALLBACK_BYPASS: 'true' });
      expect(error.message).toContain('AUTH_OAUTH_DEVELOPMENT_CALLBACK_BYPASS is refused with AUTH_COOKIE_SECURE=true');
    });
    it('is refused with a non-local https public base', () => {
      const error = configError({ AUTH_ENABLE_OAUTH: 'true', AUTH_PUBLIC_BASE_URL: BASE, AUTH_COOKIE_SECURE: 'false', AUTH_OAUTH_DEVELOPMENT_CALLBACK_BYPASS: 'true' });
      expect(error.message).toContain('non-local https');
    });
  });

  it('lists every broken variable in one error, and never a value', () => {
    const error = configError({
      ...all,
      AUTH_COOKIE_SECURE: 'maybe',
      AUTH_PROVIDER_A_REDIRECT_URI: 'https://x.test/a-secret-value',
      AUTH_PROVIDER_C_GENERATED_CLIENT_SECRET: 'pre-generated-value',
    });
    expect(error.variables).toHaveLength(3);
    expect(error.message).not.toContain('x.test');
  });
});
