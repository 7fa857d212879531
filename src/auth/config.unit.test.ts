import { describe, expect, it } from 'vitest';
import { parseAuthConfig } from './config.ts';
import { testSigner } from './oauth/jwt/test-keys.ts';

const parse = (entries: Record<string, string>) => parseAuthConfig(new Map(Object.entries(entries)));

describe('parseAuthConfig()', () => {
  it('has working defaults with no AUTH_* variable', () => {
    const config = parse({});
    expect(config).toMatchObject({ cookieSecure: false, sessionTtlSeconds: 43200, passwordMinLength: 12, loginMaxFailures: 5, loginLockoutSeconds: 900, systemToken: undefined });
  });

  it('reads every variable', () => {
    const config = parse({
      AUTH_PUBLIC_BASE_URL: 'https://auth.example.com',
      AUTH_COOKIE_SECURE: 'true',
      AUTH_SESSION_TTL_SECONDS: '60',
      AUTH_SYSTEM_TOKEN_JWKS: '{"kty":"EC","crv":"P-256","x":"gVdrcdkBCUUv1Lxkr9J1rni1D5mU9w9bAF26qatEnyE","y":"v51LZBbNQaH-CH4vOJeu0D0mVzUExB7kJ-3XDRGRrkQ"}',
    });
    expect(config.publicOrigin).toBe('https://auth.example.com');
    expect(config.cookieSecure).toBe(true);
    expect(config.sessionTtlSeconds).toBe(60);
    expect(config.systemToken?.keys).toHaveLength(1);
    expect(config.systemToken).toMatchObject({ issuer: 'wasi-counter-auth', audience: 'wasi-counter-auth:storage-status' });
  });

  it('reads MAIL_DEAD_LETTER_RETENTION_SECONDS, which the hosts pass through with the AUTH_* variables', () => {
    expect(parse({}).mailDeadLetterRetentionSeconds).toBe(2_592_000);
    expect(parse({ MAIL_DEAD_LETTER_RETENTION_SECONDS: '0' }).mailDeadLetterRetentionSeconds).toBe(0);
  });

  it.each([
    ['https://counter.example/app', 'a path is not allowed'],
    ['https://counter.example/?x=1', 'a query or fragment is not allowed'],
  ])('refuses AUTH_PUBLIC_BASE_URL=%s saying what is wrong, without the value', (value, reason) => {
    expect(() => parse({ AUTH_PUBLIC_BASE_URL: value })).toThrow(`invalid configuration: AUTH_PUBLIC_BASE_URL (${reason}`);
    try {
      parse({ AUTH_PUBLIC_BASE_URL: value });
    } catch (error) {
      expect(String(error)).not.toMatch(/\/app|x=1/);
    }
  });

  it('treats an empty value as unset', () => {
    expect(parse({ AUTH_SYSTEM_TOKEN_JWKS: '', AUTH_SYSTEM_TOKEN_SECRET: '' }).systemToken).toBeUndefined();
  });

  it('names every bad variable, sorted, and never a value', () => {
    const secret = 'too-short-secret-value';
    let message = '';
    try {
      parse({
        AUTH_COOKIE_SECURE: 'yes',
        AUTH_SESSION_TTL_SECONDS: '0',
        AUTH_SYSTEM_TOKEN_ISSUER: '',
        AUTH_PASSWORD_MIN_LENGTH: secret,
        AUTH_PUBLIC_BASE_URL: 'https://x.example/path',
      });
    } catch (error) {
      expect(error).toMatchObject({ code: 'configuration' });
      message = (error as Error).message;
    }
    expect(message).toBe(
      'invalid configuration: AUTH_COOKIE_SECURE, AUTH_PASSWORD_MIN_LENGTH, AUTH_PUBLIC_BASE_URL (a path is not allowed: give scheme://host[:port] only, the service is served from the root of its host), AUTH_SESSION_TTL_SECONDS',
    );
    expect(message).not.toContain(secret);
  });

  it('refuses the former HS256 secret, saying what to do, never its value', () => {
    const secret = 'an-old-hs256-secret-0123456789-abcdef';
    const error = (() => {
      try {
        parse({ AUTH_SYSTEM_TOKEN_SECRET: secret });
      } catch (e) {
        return e as Error & { code: string };
      }
      return undefined;
    })();
    expect(error?.code).toBe('configuration');
    expect(error?.message).toContain('AUTH_SYSTEM_TOKEN_SECRET is no longer accepted');
    expect(error?.message).toContain('AUTH_SYSTEM_TOKEN_JWKS');
    expect(error?.message).not.toContain(secret);
  });

  it('reads AUTH_SYSTEM_TOKEN_JWKS as a JWK Set or one JWK, ES256 public keys only', async () => {
    const es = await testSigner('ES256', 'op-1');
    const rsa = await testSigner('RS256', 'op-rsa');
    expect(parse({ AUTH_SYSTEM_TOKEN_JWKS: JSON.stringify({ keys: [es.publicJwk, rsa.publicJwk] }) }).systemToken?.keys.map((k) => [k.alg, k.kid])).toEqual([['ES256', 'op-1']]);
    expect(parse({ AUTH_SYSTEM_TOKEN_JWKS: JSON.stringify(es.publicJwk) }).systemToken?.keys).toHaveLength(1);
    const problem = (value: string) => {
      try {
        parse({ AUTH_SYSTEM_TOKEN_JWKS: value });
        return '';
      } catch (e) {
        return (e as Error).message;
      }
    };
    expect(problem('not json')).toBe('invalid configuration: AUTH_SYSTEM_TOKEN_JWKS (not JSON)');
    expect(problem('[1]')).toBe('invalid configuration: AUTH_SYSTEM_TOKEN_JWKS (neither a JWK nor a JWK Set)');
    expect(problem(JSON.stringify({ keys: [rsa.publicJwk] }))).toContain('no usable ES256');
    expect(problem(JSON.stringify({ kty: 'oct', k: 'c2VjcmV0' }))).toContain('private or symmetric key');
    expect(problem(JSON.stringify({ ...es.publicJwk, d: 'AAAA' }))).toContain('private or symmetric key');
    expect(problem(JSON.stringify({ ...es.publicJwk, d: 'AAAA' }))).not.toContain('AAAA');
  });

  it('ignores variables that are not its own', () => {
    expect(() => parse({ AUTH_ENABLE_OAUTH: 'maybe', OTHER: 'x' })).not.toThrow();
  });

  it('turns Secure on by default for an https base, off for http or none, so an https deployment that forgot the variable still gets Secure cookies', () => {
    expect(parse({ AUTH_PUBLIC_BASE_URL: 'https://auth.example.com' }).cookieSecure).toBe(true);
    expect(parse({ AUTH_PUBLIC_BASE_URL: 'http://127.0.0.1:3000' }).cookieSecure).toBe(false);
    expect(parse({}).cookieSecure).toBe(false);
    expect(parse({ AUTH_COOKIE_SECURE: 'true' }).cookieSecure).toBe(true);
  });

  it('refuses AUTH_COOKIE_SECURE=false with an https base', () => {
    expect(() => parse({ AUTH_PUBLIC_BASE_URL: 'https://auth.example.com', AUTH_COOKIE_SECURE: 'false' })).toThrow(
      'invalid configuration: AUTH_COOKIE_SECURE (must not be false when AUTH_PUBLIC_BASE_URL is https)',
    );
  });
});
