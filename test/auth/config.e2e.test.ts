/**
 * A bad AUTH_* configuration stops the host at start (exit code 2) with a message naming the
 * variables and never their values; `.env` is read and the real environment wins over it.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort, runHostCli, tempDataDir } from '../../harness/host-process.ts';

describe('auth configuration at start', () => {
  it('exits 2 naming every bad variable, never a value', async () => {
    const secret = 'too-short-but-secret';
    const port = await freePort();
    const { code, output } = await runHostCli(['--port', String(port), '--data-dir', tempDataDir()], {
      AUTH_COOKIE_SECURE: 'sometimes',
      AUTH_PASSWORD_MIN_LENGTH: secret,
      AUTH_SESSION_TTL_SECONDS: '-5',
    });
    expect(code).toBe(2);
    expect(output).toContain('invalid configuration: AUTH_COOKIE_SECURE, AUTH_PASSWORD_MIN_LENGTH, AUTH_SESSION_TTL_SECONDS');
    expect(output).toContain('"code":"config_invalid"');
    expect(output).not.toContain(secret);
    expect(output).not.toContain('sometimes');
    expect(output).not.toContain('"code":"host_listening"');
  });

  it('refuses the former AUTH_SYSTEM_TOKEN_SECRET at start, saying what to set instead', async () => {
    const secret = 'an-old-hs256-secret-0123456789-abcdef';
    const { code, output } = await runHostCli(['--port', String(await freePort()), '--data-dir', tempDataDir()], { AUTH_SYSTEM_TOKEN_SECRET: secret });
    expect(code).toBe(2);
    expect(output).toContain('AUTH_SYSTEM_TOKEN_SECRET is no longer accepted');
    expect(output).toContain('AUTH_SYSTEM_TOKEN_JWKS');
    expect(output).not.toContain(secret);
  });

  it('reads .env from the working directory, and the real environment wins over it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'auth-env-'));
    writeFileSync(join(dir, '.env'), 'AUTH_COOKIE_SECURE=definitely\nAUTH_SESSION_TTL_SECONDS=nope\n');
    const port = await freePort();
    const run = (env: Record<string, string>) => runHostCli(['--port', String(port), '--data-dir', tempDataDir()], env, dir);
    const fromFile = await run({});
    expect(fromFile.code).toBe(2);
    expect(fromFile.output).toContain('invalid configuration: AUTH_COOKIE_SECURE, AUTH_SESSION_TTL_SECONDS');
    // The environment fixes one variable; the file's other bad value still stops the start.
    const mixed = await run({ AUTH_COOKIE_SECURE: 'false' });
    expect(mixed.code).toBe(2);
    expect(mixed.output).toContain('invalid configuration: AUTH_SESSION_TTL_SECONDS');
    expect(mixed.output).not.toContain('AUTH_COOKIE_SECURE');
  });

  it('exits 2 for an https AUTH_PUBLIC_BASE_URL with AUTH_COOKIE_SECURE=false (a session cookie must not travel in clear)', async () => {
    const port = await freePort();
    const { code, output } = await runHostCli(['--port', String(port), '--data-dir', tempDataDir()], {
      AUTH_PUBLIC_BASE_URL: 'https://auth.example.com',
      AUTH_COOKIE_SECURE: 'false',
    });
    expect(code).toBe(2);
    expect(output).toContain('invalid configuration: AUTH_COOKIE_SECURE (must not be false when AUTH_PUBLIC_BASE_URL is https)');
    expect(output).toContain('"code":"config_invalid"');
  });
});
