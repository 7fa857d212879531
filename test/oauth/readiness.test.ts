/**
 * `npm run oauth:readiness` (scripts/oauth/readiness.ts) run as the operator runs it: a child
 * process with only the given environment and `.env` in its working directory.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportPKCS8, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../harness/host-process.ts';
import { clientSecretJwt } from '../../src/auth/oauth/jwt/test-keys.ts';

const BASE = 'https://auth.example.com';
let live: Record<string, string>;
let secrets: string[];
const outputs: string[] = [];

function run(env: Record<string, string>, dotEnv?: string): { code: number | null; out: string; lines: string[] } {
  const cwd = mkdtempSync(join(tmpdir(), 'readiness-'));
  if (dotEnv !== undefined) writeFileSync(join(cwd, '.env'), dotEnv);
  const result = spawnSync(process.execPath, [join(ROOT, 'scripts', 'oauth', 'readiness.ts')], { cwd, env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8' });
  const out = `${result.stdout}${result.stderr}`;
  outputs.push(out);
  return { code: result.status, out, lines: out.split('\n') };
}

const fails = (lines: string[]) => lines.filter((l) => l.startsWith('FAIL'));

beforeAll(async () => {
  const pem = await exportPKCS8((await generateKeyPair('ES256', { extractable: true })).privateKey);
  secrets = [
    'a-secret-4f1d9c',
    'b-secret-9e7a2b',
    'pre-generated-c-secret-77aa',
    ...pem
      .replace(/-----[A-Z ]+-----/g, '')
      .split(/\s+/)
      .filter(Boolean),
  ];
  live = {
    AUTH_ENABLE_OAUTH: 'true',
    AUTH_PUBLIC_BASE_URL: BASE,
    AUTH_COOKIE_SECURE: 'true',
    AUTH_PROVIDER_A_ENABLED: 'true',
    AUTH_PROVIDER_A_CLIENT_ID: 'a-client.apps.example',
    AUTH_PROVIDER_A_CLIENT_SECRET: 'a-secret-4f1d9c',
    AUTH_PROVIDER_A_REDIRECT_URI: `${BASE}/api/auth/oauth/provider_a/callback`,
    AUTH_PROVIDER_B_ENABLED: 'true',
    AUTH_PROVIDER_B_CLIENT_ID: '1234567890',
    AUTH_PROVIDER_B_CLIENT_SECRET: 'b-secret-9e7a2b',
    AUTH_PROVIDER_B_REDIRECT_URI: `${BASE}/api/auth/oauth/provider_b/callback`,
    AUTH_PROVIDER_C_ENABLED: 'true',
    AUTH_PROVIDER_C_CLIENT_ID: 'com.example.web',
    AUTH_PROVIDER_C_REDIRECT_URI: `${BASE}/api/auth/oauth/provider_c/callback`,
    AUTH_PROVIDER_C_TEAM_ID: 'TEAM123456',
    AUTH_PROVIDER_C_KEY_ID: 'KEY1234567',
    AUTH_PROVIDER_C_PRIVATE_KEY: pem.trim().replace(/\n/g, '\\n'),
  };
});

afterAll(() => {
  // The whole point of the tool: no configured secret value in any output, pass or fail.
  expect(outputs.length).toBeGreaterThan(0);
  for (const out of outputs) for (const secret of secrets) expect(out).not.toContain(secret);
});

describe('oauth:readiness', () => {
  it('passes a complete live configuration: one PASS line per check, exit 0', () => {
    const { code, lines } = run(live);
    expect(fails(lines)).toEqual([]);
    expect(lines.filter((l) => l.startsWith('PASS')).length).toBe(18);
    expect(lines).toContain('PASS  provider_a  AUTH_PROVIDER_A_REDIRECT_URI equals AUTH_PUBLIC_BASE_URL + /api/auth/oauth/provider_a/callback byte for byte');
    expect(lines).toContain('PASS  provider_c  AUTH_PROVIDER_C_PRIVATE_KEY is a P-256 private key in PEM (or escaped PEM)');
    expect(code).toBe(0);
  });

  it.each([
    'AUTH_ENABLE_OAUTH',
    'AUTH_PUBLIC_BASE_URL',
    'AUTH_COOKIE_SECURE',
    'AUTH_PROVIDER_A_ENABLED',
    'AUTH_PROVIDER_A_CLIENT_ID',
    'AUTH_PROVIDER_A_CLIENT_SECRET',
    'AUTH_PROVIDER_A_REDIRECT_URI',
    'AUTH_PROVIDER_B_ENABLED',
    'AUTH_PROVIDER_B_CLIENT_ID',
    'AUTH_PROVIDER_B_CLIENT_SECRET',
    'AUTH_PROVIDER_B_REDIRECT_URI',
    'AUTH_PROVIDER_C_ENABLED',
    'AUTH_PROVIDER_C_CLIENT_ID',
    'AUTH_PROVIDER_C_REDIRECT_URI',
    'AUTH_PROVIDER_C_TEAM_ID',
    'AUTH_PROVIDER_C_KEY_ID',
    'AUTH_PROVIDER_C_PRIVATE_KEY',
  ])('names the missing variable %s and exits 1', (name) => {
    const { [name]: _removed, ...rest } = live;
    const { code, lines } = run(rest);
    expect(fails(lines).some((l) => l.includes(name))).toBe(true);
    expect(code).toBe(1);
  });

  it.each([
    ['an http base', { AUTH_PUBLIC_BASE_URL: 'http://auth.example.com' }, 'AUTH_PUBLIC_BASE_URL must use https'],
    ['a localhost base', { AUTH_PUBLIC_BASE_URL: 'https://localhost:3000' }, 'AUTH_PUBLIC_BASE_URL must name a real host'],
    ['a 127.0.0.1 base', { AUTH_PUBLIC_BASE_URL: 'https://127.0.0.1' }, 'AUTH_PUBLIC_BASE_URL must name a real host'],
    ['an IP base', { AUTH_PUBLIC_BASE_URL: 'https://203.0.113.7' }, 'AUTH_PUBLIC_BASE_URL must name a real host'],
    ['a base with a path', { AUTH_PUBLIC_BASE_URL: `${BASE}/app` }, 'AUTH_PUBLIC_BASE_URL must be an origin only'],
    [
      'a redirect URI off the base',
      { AUTH_PROVIDER_B_REDIRECT_URI: 'https://other.example.com/api/auth/oauth/provider_b/callback' },
      'AUTH_PROVIDER_B_REDIRECT_URI must equal AUTH_PUBLIC_BASE_URL + /api/auth/oauth/provider_b/callback',
    ],
    ['a redirect URI with a trailing slash', { AUTH_PROVIDER_A_REDIRECT_URI: `${BASE}/api/auth/oauth/provider_a/callback/` }, 'AUTH_PROVIDER_A_REDIRECT_URI must equal'],
    ['an http redirect URI', { AUTH_PROVIDER_C_REDIRECT_URI: 'http://auth.example.com/api/auth/oauth/provider_c/callback' }, 'AUTH_PROVIDER_C_REDIRECT_URI must use https'],
    ['a loopback endpoint override', { AUTH_PROVIDER_A_AUTHORIZATION_URL: 'http://127.0.0.1:9000/authorize' }, 'AUTH_PROVIDER_A_AUTHORIZATION_URL must use https'],
    ['an IP endpoint override', { AUTH_PROVIDER_B_TOKEN_URL: 'https://10.0.0.5/token' }, 'AUTH_PROVIDER_B_TOKEN_URL must name a real host'],
    ['the development bypass', { AUTH_OAUTH_DEVELOPMENT_CALLBACK_BYPASS: 'true' }, 'AUTH_OAUTH_DEVELOPMENT_CALLBACK_BYPASS must be off'],
    [
      'both provider_c sources',
      { AUTH_PROVIDER_C_GENERATED_CLIENT_SECRET: 'pre-generated-c-secret-77aa' },
      'provider_c has two client-secret sources: AUTH_PROVIDER_C_TEAM_ID, AUTH_PROVIDER_C_KEY_ID, AUTH_PROVIDER_C_PRIVATE_KEY and AUTH_PROVIDER_C_GENERATED_CLIENT_SECRET',
    ],
    ['a private key that is not PEM', { AUTH_PROVIDER_C_PRIVATE_KEY: 'b-secret-9e7a2b' }, 'AUTH_PROVIDER_C_PRIVATE_KEY is not a usable P-256 private key (not PEM or escaped PEM)'],
  ])('fails %s with a line that names the variable', (_name, change, expected) => {
    const { code, lines } = run({ ...live, ...change });
    expect(fails(lines).some((l) => l.includes(expected))).toBe(true);
    expect(code).toBe(1);
  });

  it('accepts the pre-generated provider_c secret as the only source', () => {
    const { AUTH_PROVIDER_C_TEAM_ID: _t, AUTH_PROVIDER_C_KEY_ID: _k, AUTH_PROVIDER_C_PRIVATE_KEY: _p, ...rest } = live;
    const { code, lines } = run({ ...rest, AUTH_PROVIDER_C_GENERATED_CLIENT_SECRET: clientSecretJwt(Date.now() / 1000 + 3600) });
    expect(fails(lines)).toEqual([]);
    expect(code).toBe(0);
  });

  it('fails a pre-generated provider_c secret past its exp, before any sign-in fails on it', () => {
    const { AUTH_PROVIDER_C_TEAM_ID: _t, AUTH_PROVIDER_C_KEY_ID: _k, AUTH_PROVIDER_C_PRIVATE_KEY: _p, ...rest } = live;
    const { code, lines } = run({ ...rest, AUTH_PROVIDER_C_GENERATED_CLIENT_SECRET: clientSecretJwt(Date.now() / 1000 - 60) });
    expect(fails(lines).some((l) => l.includes('AUTH_PROVIDER_C_GENERATED_CLIENT_SECRET has expired'))).toBe(true);
    expect(code).toBe(1);
  });

  it('reads .env, with the real environment winning over it', () => {
    const dotEnv = Object.entries(live)
      .map(([k, v]) => `${k}="${v}"`)
      .join('\n');
    expect(run({}, dotEnv).code).toBe(0);
    const { code, lines } = run({ AUTH_PROVIDER_A_ENABLED: 'false' }, dotEnv);
    expect(fails(lines).map((l) => l.replace(/\s+/g, ' '))).toContain('FAIL provider_a AUTH_PROVIDER_A_ENABLED must be true');
    expect(code).toBe(1);
  });

  it('checks only the providers in OAUTH_PROVIDERS, and refuses an unknown one with exit 2', () => {
    const onlyA = Object.fromEntries(Object.entries(live).filter(([k]) => !/PROVIDER_[BC]_/.test(k)));
    const { code, lines } = run({ ...onlyA, OAUTH_PROVIDERS: 'provider_a' });
    expect(lines.some((l) => l.includes('provider_b'))).toBe(false);
    expect(code).toBe(0);
    const bad = run({ ...live, OAUTH_PROVIDERS: 'provider_x' });
    expect(bad.lines[0]).toBe('FAIL  parameters  OAUTH_PROVIDERS names an unknown provider (allowed: provider_a, provider_b, provider_c)');
    expect(bad.code).toBe(2);
  });
});
