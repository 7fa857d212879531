/**
 * `.env.example` works as copied: `cp .env.example .env` in the working directory, start, and the
 * host serves with passkeys on (its base is http://localhost:3000, a domain name, not 127.0.0.1,
 * which browsers refuse as an RP ID) and mail logged on the console, every provider off.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startHost, tempDataDir, type HostProcess } from '../../harness/host-process.ts';

describe('.env.example copied to .env', () => {
  let host: HostProcess;
  beforeAll(async () => {
    const dir = tempDataDir('env-example-');
    copyFileSync(join(ROOT, '.env.example'), join(dir, '.env'));
    // Nothing of the test runner's own environment that .env sets: the file's values apply.
    const unset = Object.fromEntries(
      Object.keys(process.env)
        .filter((name) => /^AUTH_|^SMTP_|^MAIL_/.test(name))
        .map((name) => [name, '']),
    );
    host = await startHost({ cwd: dir, env: unset });
  });
  afterAll(async () => {
    await host?.stop();
  });

  it('starts, and its start-up line says what is on', () => {
    const listening = host.logs().find((line) => line['code'] === 'host_listening');
    expect(listening?.['summary']).toMatchObject({
      'public base': 'http://localhost:3000',
      mail: 'on (logged on the console, no SMTP_URL: development only)',
      passkeys: 'on (RP ID localhost)',
      provider_a: 'off (AUTH_ENABLE_OAUTH is not true)',
    });
  });

  it('offers passkeys, mail verification and password reset', async () => {
    const capabilities = (await (await fetch(`${host.url}/api/auth/capabilities`)).json()) as Record<string, { enabled?: boolean; reset?: boolean }>;
    expect(capabilities['passkeys']?.enabled).toBe(true);
    expect(capabilities['email_verification']?.enabled).toBe(true);
    expect(capabilities['password']?.reset).toBe(true);
  });
});
