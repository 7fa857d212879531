/**
 * GET /api/auth/storage/status: the authorization matrix (no token, bad signature, expired,
 * wrong issuer/audience, AAL1, non-admin, AAL2 admin) and the evidence it reports. One token is
 * minted by the operator command itself (`npm run auth:token`).
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startHost, type HostProcess } from '../support/host-process.ts';
import { expectError, register, TOKEN_SECRET } from './support.ts';

const ISSUER = 'wasi-counter-auth';
const AUDIENCE = 'wasi-counter-auth:storage-status';
let host: HostProcess;
const tokens: string[] = [];

beforeAll(async () => {
  host = await startHost({ env: { AUTH_SYSTEM_TOKEN_SECRET: TOKEN_SECRET } });
});
afterAll(async () => {
  await host?.stop();
});

interface TokenOptions {
  secret?: string;
  aal?: string;
  roles?: string[];
  issuer?: string;
  audience?: string;
  expiresIn?: string | number;
}

async function mint(options: TokenOptions = {}): Promise<string> {
  const token = await new SignJWT({ aal: options.aal ?? 'aal2', roles: options.roles ?? ['system_admin'] })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(options.issuer ?? ISSUER)
    .setAudience(options.audience ?? AUDIENCE)
    .setSubject('operator-1')
    .setIssuedAt(typeof options.expiresIn === 'number' ? options.expiresIn - 60 : undefined)
    .setExpirationTime(options.expiresIn ?? '5m')
    .sign(new TextEncoder().encode(options.secret ?? TOKEN_SECRET));
  tokens.push(token);
  return token;
}

const status = (authorization?: string) => fetch(`${host.url}/api/auth/storage/status`, { headers: authorization ? { authorization } : {} });

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

  it('401 for a bad signature', async () => {
    await expectError(await status(`Bearer ${await mint({ secret: 'another-secret-0123456789-abcdefghijk' })}`), 401, 'unauthorized', 'a valid bearer token is required');
  });

  it('401 for an expired token', async () => {
    await expectError(await status(`Bearer ${await mint({ expiresIn: Math.floor(Date.now() / 1000) - 120 })}`), 401, 'unauthorized');
  });

  it('401 for a wrong issuer or audience', async () => {
    await expectError(await status(`Bearer ${await mint({ issuer: 'someone-else' })}`), 401, 'unauthorized');
    await expectError(await status(`Bearer ${await mint({ audience: 'another-api' })}`), 401, 'unauthorized');
  });

  it('403 for a valid AAL1 token', async () => {
    await expectError(await status(`Bearer ${await mint({ aal: 'aal1' })}`), 403, 'forbidden', 'an AAL2 system administrator token is required');
  });

  it('403 for a valid AAL2 token without the system_admin role', async () => {
    await expectError(await status(`Bearer ${await mint({ roles: ['support'] })}`), 403, 'forbidden');
  });

  it('200 for an AAL2 system administrator, with counts, total, latest sequence and checkpoint', async () => {
    await register(host.url);
    const response = await status(`Bearer ${await mint()}`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { events: Record<string, number>; total: number; latest_sequence: number; projections: Array<{ name: string; checkpoint: number }> };
    for (const kind of ['auth_password_user_registered', 'auth_password_login_succeeded', 'auth_session_issued', 'auth_session_revoked', 'auth_oauth_state_created', 'auth_oauth_state_consumed', 'auth_external_identity_linked']) {
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
  it('mints a token the service accepts, and counts go up after a registration', async () => {
    const run = (args: string[]) =>
      execFileSync(process.execPath, [join(ROOT, 'scripts', 'auth-token.ts'), ...args], { cwd: ROOT, env: { ...process.env, AUTH_SYSTEM_TOKEN_SECRET: TOKEN_SECRET }, encoding: 'utf8' }).trim();
    const admin = run(['--sub', 'op-cli', '--aal', 'aal2', '--role', 'system_admin', '--ttl', '10m']);
    tokens.push(admin);
    const before = (await (await status(`Bearer ${admin}`)).json()) as { events: Record<string, number> };
    await register(host.url);
    const after = (await (await status(`Bearer ${admin}`)).json()) as { events: Record<string, number> };
    expect(after.events['auth_password_user_registered']).toBe(before.events['auth_password_user_registered']! + 1);
    const aal1 = run(['--sub', 'op-cli', '--aal', 'aal1', '--ttl', '1m']);
    tokens.push(aal1);
    expect((await status(`Bearer ${aal1}`)).status).toBe(403);
  });

  it('refuses to run without a long enough secret, naming the variable only', () => {
    let stderr = '';
    try {
      execFileSync(process.execPath, [join(ROOT, 'scripts', 'auth-token.ts'), '--sub', 'x'], { cwd: join(ROOT, 'test'), env: { ...process.env, AUTH_SYSTEM_TOKEN_SECRET: 'short-secret' }, encoding: 'utf8', stdio: 'pipe' });
    } catch (error) {
      stderr = String((error as { stderr?: string }).stderr);
    }
    expect(stderr).toContain('AUTH_SYSTEM_TOKEN_SECRET must be set to at least 32 bytes');
    expect(stderr).not.toContain('short-secret');
  });
});

describe('logs', () => {
  it('never contain a token or the secret', () => {
    const output = host.output.join('\n');
    expect(output).toContain('"code":"auth_storage_status"');
    expect(output).not.toContain(TOKEN_SECRET);
    for (const token of tokens) expect(output).not.toContain(token);
  });
});
