/**
 * An OAuth provider switched on but lacking a credential is a misconfiguration like any other:
 * the start stops with exit code 2 and one stderr line naming the variables it lacks, never a
 * value, instead of serving without its sign-in button. Switched off, or with OAuth off, it is
 * named as off (and why) in the start-up line.
 */
import { describe, expect, it } from 'vitest';
import { freePort, runHostCli, startHost, tempDataDir } from '../../harness/host-process.ts';

const CLIENT_ID = 'client-id-value-7f3a9c';
const SECRET = 'client-secret-value-b41e0d';

const providers = (base: string) => ({
  AUTH_ENABLE_OAUTH: 'true',
  AUTH_PUBLIC_BASE_URL: base,
  AUTH_PROVIDER_A_ENABLED: 'true',
  AUTH_PROVIDER_A_CLIENT_ID: CLIENT_ID,
  AUTH_PROVIDER_A_REDIRECT_URI: `${base}/api/auth/oauth/provider_a/callback`,
  AUTH_PROVIDER_B_ENABLED: 'true',
  AUTH_PROVIDER_B_CLIENT_SECRET: SECRET,
  AUTH_PROVIDER_B_REDIRECT_URI: `${base}/api/auth/oauth/provider_b/callback`,
});

describe('enabled OAuth providers lacking a credential', () => {
  it('stop the start with exit code 2, naming what each lacks and its switch, and no value', async () => {
    const port = await freePort();
    const { code, stderr, output } = await runHostCli(['--port', String(port), '--data-dir', tempDataDir()], providers(`http://127.0.0.1:${port}`));
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toEqual([
      "error: invalid configuration: AUTH_PROVIDER_A_CLIENT_SECRET, AUTH_PROVIDER_B_CLIENT_ID (missing, and AUTH_PROVIDER_A_ENABLED, AUTH_PROVIDER_B_ENABLED is true: set them, or switch the provider off) (the application's variables, checked at start: docs/configuration.md)",
    ]);
    expect(output).toContain('"code":"config_invalid"');
    expect(output).not.toContain('"code":"host_listening"');
    expect(output).not.toContain(CLIENT_ID);
    expect(output).not.toContain(SECRET);
  }, 60_000);

  it('switched off, they are named off in the start-up line, with the reason', async () => {
    const port = await freePort();
    const host = await startHost({ port, env: { ...providers(`http://127.0.0.1:${port}`), AUTH_PROVIDER_A_ENABLED: 'false', AUTH_PROVIDER_B_ENABLED: 'false' } });
    try {
      const listening = host.logs().find((line) => line['code'] === 'host_listening');
      expect(listening?.['summary']).toMatchObject({
        provider_a: 'off (AUTH_PROVIDER_A_ENABLED is not true)',
        provider_b: 'off (AUTH_PROVIDER_B_ENABLED is not true)',
        provider_c: 'off (AUTH_PROVIDER_C_ENABLED is not true)',
      });
      expect(host.output.join('\n')).not.toContain(SECRET);
    } finally {
      await host.stop();
    }
  }, 60_000);
});
