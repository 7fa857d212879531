/** The shared output of the live tools: redaction and the PASS/FAIL/SKIP lines (scripts/oauth/live/output.ts). */
import { describe, expect, it } from 'vitest';
import { ToolOutput, redact, secretsOfEnv } from '../../scripts/oauth/live/output.ts';
import { parseBaseUrl, parseSessionCookie, readLiveParams } from '../../scripts/oauth/live/params.ts';

const PEM = '-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg\nq83mLh2rJ7hVvN5x0QkWcT4nYpB6sEoD9uZ1aFgHiLmo\n-----END PRIVATE KEY-----\n';

describe('redact', () => {
  it('hides every secret as is, URL-encoded and form-encoded, longest first', () => {
    const secret = 'a secret/with+chars=';
    const text = `raw ${secret} url ${encodeURIComponent(secret)} form ${encodeURIComponent(secret).replace(/%20/g, '+')} end`;
    expect(redact(text, [secret])).toBe('raw [redacted] url [redacted] form [redacted] end');
    expect(redact('token abcdef123456 and abcdef', ['abcdef', 'abcdef123456'])).toBe('token [redacted] and [redacted]');
  });

  it('leaves values shorter than 6 characters alone (they would mangle ordinary words)', () => {
    expect(redact('true 3000', ['true', '3000'])).toBe('true 3000');
  });

  it('hides every email except the expected one (case-insensitive)', () => {
    expect(redact('a@example.com and Me@Example.com and x.y+z@sub.example.org', [], 'me@example.com')).toBe('[email redacted] and Me@Example.com and [email redacted]');
    expect(redact('person@example.test', [])).toBe('[email redacted]');
  });
});

describe('secretsOfEnv', () => {
  it('takes secrets, keys, tokens and cookies by variable name, with PEM lines and cookie values on their own', () => {
    const secrets = secretsOfEnv({
      AUTH_PROVIDER_A_CLIENT_SECRET: 'a-secret-123456',
      AUTH_PROVIDER_A_CLIENT_ID: 'client-a-public',
      AUTH_PROVIDER_C_PRIVATE_KEY: PEM.replace(/\n/g, '\\n'),
      AUTH_SYSTEM_ACCESS_TOKEN: 'eyJhbGciOi.token.sig',
      SESSION_COOKIE: 'theme=dark; wasi_auth_dev_session=SESSIONID0123456789',
      BASE_URL: 'https://auth.example.com',
      AUTH_PROVIDER_A_TOKEN_URL: 'https://oauth2.provider-a.example/token',
      AUTH_SYSTEM_TOKEN_ISSUER: 'wasi-counter-auth',
    });
    expect(secrets).toEqual(
      expect.arrayContaining([
        'a-secret-123456',
        'eyJhbGciOi.token.sig',
        'SESSIONID0123456789',
        'MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg',
        'q83mLh2rJ7hVvN5x0QkWcT4nYpB6sEoD9uZ1aFgHiLmo',
      ]),
    );
    expect(secrets).not.toContain('client-a-public');
    expect(secrets).not.toContain('https://auth.example.com');
    expect(secrets).not.toContain('https://oauth2.provider-a.example/token');
    expect(secrets).not.toContain('wasi-counter-auth');
  });
});

describe('ToolOutput', () => {
  it('prints one redacted line per check, counts failures, and sets the exit code', () => {
    const lines: string[] = [];
    const out = new ToolOutput({ secrets: ['s3cr3t-value'], write: (l) => lines.push(l) });
    out.addSecret('runtime-state-value');
    out.pass('provider_a', 'state runtime-state-value is fine');
    out.fail('shared', 'the secret s3cr3t-value leaked into a message for who@example.com');
    out.skip('provider_b', 'not configured');
    expect(out.passedFor('provider_a')).toBe(false); // a shared failure fails every provider
    expect(out.finish('tool')).toBe(1);
    expect(lines).toEqual([
      'PASS  provider_a  state [redacted] is fine',
      'FAIL  shared      the secret [redacted] leaked into a message for [email redacted]',
      'SKIP  provider_b  not configured',
      'tool: 1 of 2 checks failed',
    ]);
  });

  it('exits 0 when nothing failed, skips included', () => {
    const lines: string[] = [];
    const out = new ToolOutput({ write: (l) => lines.push(l) });
    out.pass('provider_a', 'fine');
    out.skip('shared', 'not asked');
    expect(out.passedFor('provider_a')).toBe(true);
    expect(out.finish('tool')).toBe(0);
    expect(lines.at(-1)).toBe('tool: all 1 checks passed');
  });
});

describe('shared parameters', () => {
  it('reads SESSION_COOKIE as a bare id, a name=value pair or a whole Cookie header', () => {
    expect(parseSessionCookie('AbC_12-xyz')).toEqual({ header: 'wasi_auth_dev_session=AbC_12-xyz', id: 'AbC_12-xyz' });
    expect(parseSessionCookie('wasi_auth_dev_session=AbC_12-xyz')).toEqual({ header: 'wasi_auth_dev_session=AbC_12-xyz', id: 'AbC_12-xyz' });
    expect(parseSessionCookie('Cookie: theme=dark; wasi_auth_dev_session=AbC_12-xyz; other=1')).toEqual({
      header: 'theme=dark; wasi_auth_dev_session=AbC_12-xyz; other=1',
      id: 'AbC_12-xyz',
    });
    expect(parseSessionCookie('theme=dark')).toBeUndefined();
    expect(parseSessionCookie('not a cookie')).toBeUndefined();
  });

  it('takes BASE_URL as an origin only', () => {
    expect(parseBaseUrl('https://auth.example.com/')).toEqual({ origin: 'https://auth.example.com' });
    expect(parseBaseUrl('http://127.0.0.1:3000')).toEqual({ origin: 'http://127.0.0.1:3000' });
    expect(parseBaseUrl('https://auth.example.com/app')).toHaveProperty('problem');
    expect(parseBaseUrl('ftp://auth.example.com')).toHaveProperty('problem');
    expect(parseBaseUrl(undefined)).toHaveProperty('problem');
  });

  it('names each bad or missing parameter, never its value', () => {
    const read = readLiveParams(
      { BASE_URL: 'https://x.example/p', OAUTH_PROVIDERS: 'provider_z', OAUTH_EVIDENCE_MODE: 'sometimes', SESSION_COOKIE: 'other=secretvalue1', EXPECTED_EMAIL: 'nope' },
      { token: true },
    );
    expect(read).toEqual({
      problems: [
        'BASE_URL must be an origin only (no path, query, fragment or credentials)',
        'OAUTH_PROVIDERS names an unknown provider (allowed: provider_a, provider_b, provider_c)',
        'OAUTH_EVIDENCE_MODE must be preflight or callback',
        'SESSION_COOKIE must be a session id, wasi_auth_dev_session=<id>, or a Cookie header value containing wasi_auth_dev_session',
        'AUTH_SYSTEM_ACCESS_TOKEN is missing (a multi-factor system_admin operator token: npm run -s auth:token -- --sub <operator>)',
        'EXPECTED_EMAIL must be an email address',
      ],
    });
    expect(readLiveParams({ BASE_URL: 'https://auth.example.com' }, { mode: true, session: true })).toEqual({
      problems: [
        'OAUTH_EVIDENCE_MODE is missing (preflight or callback)',
        'SESSION_COOKIE is missing (the wasi_auth_dev_session cookie of a browser that completed the provider login)',
      ],
    });
    expect(readLiveParams({ BASE_URL: 'https://auth.example.com/', OAUTH_PROVIDERS: 'provider_b', OAUTH_EVIDENCE_MODE: 'Callback' })).toEqual({
      params: { baseUrl: 'https://auth.example.com', providers: ['provider_b'], accessToken: undefined, mode: 'callback', session: undefined, expectedEmail: undefined },
    });
  });
});
