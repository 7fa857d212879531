import { describe, expect, it } from 'vitest';
import { parseAuthConfig } from './config.ts';

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
      AUTH_SYSTEM_TOKEN_SECRET: 's'.repeat(32),
    });
    expect(config.publicOrigin).toBe('https://auth.example.com');
    expect(config.cookieSecure).toBe(true);
    expect(config.sessionTtlSeconds).toBe(60);
    expect(config.systemToken?.secret.byteLength).toBe(32);
  });

  it('treats an empty value as unset', () => {
    expect(parse({ AUTH_SYSTEM_TOKEN_SECRET: '' }).systemToken).toBeUndefined();
  });

  it('names every bad variable, sorted, and never a value', () => {
    const secret = 'too-short-secret-value';
    let message = '';
    try {
      parse({ AUTH_COOKIE_SECURE: 'yes', AUTH_SESSION_TTL_SECONDS: '0', AUTH_SYSTEM_TOKEN_SECRET: secret, AUTH_PUBLIC_BASE_URL: 'https://x.example/path' });
    } catch (error) {
      expect(error).toMatchObject({ code: 'configuration' });
      message = (error as Error).message;
    }
    expect(message).toBe('invalid configuration: AUTH_COOKIE_SECURE, AUTH_PUBLIC_BASE_URL, AUTH_SESSION_TTL_SECONDS, AUTH_SYSTEM_TOKEN_SECRET');
    expect(message).not.toContain(secret);
  });

  it('ignores variables that are not its own', () => {
    expect(() => parse({ AUTH_ENABLE_OAUTH: 'maybe', OTHER: 'x' })).not.toThrow();
  });
});
