/**
 * GET /api/auth/storage/status: the authorization matrix against a real host configured with an
 * ES256 public key only (AUTH_SYSTEM_TOKEN_JWKS), including the forged-token attacks of docs/security.md:
 * another key, HS256 made with the public key as secret (RFC 8725 §3.1), `alg: none`, missing or
 * single-factor `amr`, expired, wrong audience; then the evidence it reports. Tokens are also
 * minted by the operator command itself (`npm run auth:token`, with its own dev key pair).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { base64url, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startHost, type HostProcess } from '../../harness/host-process.ts';
import { OPERATOR_AUDIENCE, OPERATOR_ISSUER, operatorIssuer, type OperatorIssuer } from '../support/operator-token.ts';
import { expectError, register } from './support.ts';

const KEY_DIR = mkdtempSync(join(tmpdir(), 'operator-dev-key-'));
const KEY_FILE = join(KEY_DIR, 'operator-token-dev-key.json');
const cli = (args: string[]) =>
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'auth-token.ts'), '--key-file', KEY_FILE, ...args], {
    cwd: KEY_DIR,
    env: { PATH: process.env.PATH ?? '' },
    encoding: 'utf8',
    stdio: 'pipe',
  }).trim();

let host: HostProcess;
let issuer: OperatorIssuer;
/** the exact AUTH_SYSTEM_TOKEN_JWKS value the host was given */
let configuredJwks = '';
const tokens: string[] = [];

beforeAll(async () => {
  issuer = await operatorIssuer();
  // Two trusted keys: the suite's issuer and the dev key of `npm run auth:token` (a JWK Set).
  const devJwks = JSON.parse(cli(['--print-jwks'])) as { keys: unknown[] };
  configuredJwks = JSON.stringify({ keys: [...(JSON.parse(issuer.publicJwks) as { keys: unknown[] }).keys, ...devJwks.keys] });
  host = await startHost({ env: { AUTH_SYSTEM_TOKEN_JWKS: configuredJwks } });
});
afterAll(async () => {
  await host?.stop();
});

async function remember(token: Promise<string> | string): Promise<string> {
  const value = await token;
  tokens.push(value);
  return value;
}

const status = (authorization?: string) => fetch(`${host.url}/api/auth/storage/status`, { headers: authorization ? { authorization } : {} });
const bearer = async (token: Promise<string> | string) => status(`Bearer ${await remember(token)}`);
const claims = { iss: OPERATOR_ISSUER, aud: OPERATOR_AUDIENCE, sub: 'attacker', amr: ['pwd', 'otp'], roles: ['system_admin'] };

describe('authorization matrix', () => {
  it('401 without a token, with WWW-Authenticate', async () => {
    const response = await status();
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    await expectError(response, 401, 'unauthorized', 'a valid bearer token is required');
  });

  it('401 for a malformed header or token', async () => {
    await expectError(await status('Basic abc'), 401, 'unauthorized');
    await expectError(await status('Bearer not.a.jwt'), 401, 'unauthorized');
  });

  it('401 for a token signed by another key, even with the trusted kid', async () => {
    const other = await operatorIssuer(issuer.kid);
    await expectError(await bearer(other.mint()), 401, 'unauthorized', 'a valid bearer token is required');
  });

  it('401 for HS256 "signed" with the configured public key as HMAC secret (alg confusion)', async () => {
    const now = Math.floor(Date.now() / 1000);
    for (const secret of [configuredJwks, issuer.publicJwks, JSON.stringify((JSON.parse(issuer.publicJwks) as { keys: unknown[] }).keys[0])]) {
      const forged = new SignJWT({ ...claims, iat: now, exp: now + 300 }).setProtectedHeader({ alg: 'HS256', kid: issuer.kid }).sign(new TextEncoder().encode(secret));
      await expectError(await bearer(forged), 401, 'unauthorized');
    }
  });

  it('401 for alg none', async () => {
    const now = Math.floor(Date.now() / 1000);
    const part = (value: object) => base64url.encode(JSON.stringify(value));
    for (const alg of ['none', 'None']) {
      await expectError(await bearer(`${part({ alg, kid: issuer.kid })}.${part({ ...claims, iat: now, exp: now + 300 })}.`), 401, 'unauthorized');
    }
  });

  it('401 for an expired token', async () => {
    const past = Math.floor(Date.now() / 1000) - 120;
    await expectError(await bearer(issuer.mint({}, { expiresIn: past, issuedAt: past - 60 })), 401, 'unauthorized');
  });

  it('401 for a wrong issuer or audience', async () => {
    await expectError(await bearer(issuer.mint({ iss: 'someone-else' })), 401, 'unauthorized');
    await expectError(await bearer(issuer.mint({ aud: 'another-api' })), 401, 'unauthorized');
  });

  it('403 without amr, or with a single factor (pwd, otp, hwk), or an unknown acr', async () => {
    for (const extra of [
      { amr: undefined },
      { amr: ['pwd'] },
      { amr: ['otp'] },
      { amr: ['hwk'] },
      { amr: ['pwd', 'kba'] },
      { amr: 'mfa' },
      { amr: undefined, acr: 'urn:example:weak' },
    ]) {
      await expectError(await bearer(issuer.mint(extra)), 403, 'forbidden', 'an AAL2 system administrator token is required');
    }
  });

  it('403 for the former home-made aal claim alone', async () => {
    await expectError(await bearer(issuer.mint({ amr: undefined, aal: 'aal2' })), 403, 'forbidden');
  });

  it('403 for a multi-factor token without the system_admin role', async () => {
    await expectError(await bearer(issuer.mint({ roles: ['support'] })), 403, 'forbidden');
  });

  it('200 for amr with mfa, two factor kinds, or a phishing-resistant acr', async () => {
    for (const extra of [{ amr: ['mfa'] }, { amr: ['pwd', 'mfa'] }, { amr: ['hwk', 'pin'] }, { amr: ['swk', 'fpt'] }, { amr: undefined, acr: 'phr' }]) {
      expect((await bearer(issuer.mint(extra))).status).toBe(200);
    }
  });

  it('200 for a multi-factor system administrator, with counts, total, latest sequence and checkpoint', async () => {
    await register(host.url);
    const response = await bearer(issuer.mint());
    expect(response.status).toBe(200);
    const body = (await response.json()) as { events: Record<string, number>; total: number; latest_sequence: number; projections: Array<{ name: string; checkpoint: number }> };
    for (const kind of ['auth_password_user_registered', 'auth_password_login_succeeded', 'auth_session_issued', 'auth_session_revoked', 'auth_external_identity_linked']) {
      expect(typeof body.events[kind]).toBe('number');
    }
    expect(body.events['auth_password_user_registered']).toBeGreaterThanOrEqual(1);
    expect(body.events['auth_session_issued']).toBeGreaterThanOrEqual(1);
    expect(body.total).toBe(Object.values(body.events).reduce((a, b) => a + b, 0));
    expect(body.latest_sequence).toBeGreaterThanOrEqual(body.total);
    expect(body.projections).toEqual([{ name: 'auth_projection', checkpoint: body.latest_sequence }]);
  });
});

describe('npm run auth:token', () => {
  it('keeps its private key in a 0600 file and prints only the public key', () => {
    expect(statSync(KEY_FILE).mode & 0o777).toBe(0o600);
    const printed = JSON.parse(cli(['--print-jwks'])) as { keys: Array<Record<string, unknown>> };
    expect(printed.keys).toHaveLength(1);
    expect(printed.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    expect(printed.keys[0]).not.toHaveProperty('d');
    expect(readFileSync(KEY_FILE, 'utf8')).toContain('"d"');
  });

  it('mints a token the service accepts, and counts go up after a registration', async () => {
    const admin = await remember(cli(['--sub', 'op-cli', '--role', 'system_admin', '--ttl', '10m']));
    const before = (await (await status(`Bearer ${admin}`)).json()) as { events: Record<string, number> };
    await register(host.url);
    const after = (await (await status(`Bearer ${admin}`)).json()) as { events: Record<string, number> };
    expect(after.events['auth_password_user_registered']).toBe(before.events['auth_password_user_registered']! + 1);
    const singleFactor = await remember(cli(['--sub', 'op-cli', '--amr', 'pwd', '--ttl', '1m']));
    expect((await status(`Bearer ${singleFactor}`)).status).toBe(403);
  });
});

describe('logs', () => {
  it('never contain a token or a private key', () => {
    const output = host.output.join('\n');
    expect(output).toContain('"code":"auth_storage_status"');
    const privateD = String((JSON.parse(readFileSync(KEY_FILE, 'utf8')) as { d: string }).d);
    expect(output).not.toContain(privateD);
    for (const token of tokens) expect(output).not.toContain(token);
  });
});
