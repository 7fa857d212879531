/**
 * An OAuth provider switched on but lacking a credential is not offered, and says so at start:
 * one `oauth_provider_not_offered` warning naming the variables it lacks, never a value. Only the
 * host's start-up probe (which carries the token from the guest's environment) gets it logged:
 * a client's /api/health does not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startHost, type HostProcess } from '../../harness/host-process.ts';

const CLIENT_ID = 'client-id-value-7f3a9c';
const SECRET = 'client-secret-value-b41e0d';

describe('enabled OAuth providers lacking a credential', () => {
  let host: HostProcess;
  beforeAll(async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    host = await startHost({
      port,
      env: {
        AUTH_ENABLE_OAUTH: 'true',
        AUTH_PUBLIC_BASE_URL: base,
        AUTH_PROVIDER_A_ENABLED: 'true',
        AUTH_PROVIDER_A_CLIENT_ID: CLIENT_ID,
        AUTH_PROVIDER_A_REDIRECT_URI: `${base}/api/auth/oauth/provider_a/callback`,
        AUTH_PROVIDER_B_ENABLED: 'true',
        AUTH_PROVIDER_B_CLIENT_SECRET: SECRET,
        AUTH_PROVIDER_B_REDIRECT_URI: `${base}/api/auth/oauth/provider_b/callback`,
      },
    });
  });
  afterAll(async () => {
    await host?.stop();
  });

  const warnings = () => host.logs().filter((line) => line['code'] === 'oauth_provider_not_offered');

  it('each is logged once at start with the names of the variables it lacks, and no value', async () => {
    expect(warnings()).toEqual([
      expect.objectContaining({ level: 'warn', source: 'component', provider: 'provider_a', missing: ['AUTH_PROVIDER_A_CLIENT_SECRET'] }),
      expect.objectContaining({ level: 'warn', source: 'component', provider: 'provider_b', missing: ['AUTH_PROVIDER_B_CLIENT_ID'] }),
    ]);
    expect(String(warnings()[0]!['msg'])).toContain('AUTH_PROVIDER_A_CLIENT_SECRET');
    expect(host.output.join('\n')).not.toContain(CLIENT_ID);
    expect(host.output.join('\n')).not.toContain(SECRET);
    const capabilities = (await (await fetch(`${host.url}/api/auth/capabilities`)).json()) as { oauth_providers?: unknown[] };
    expect(JSON.stringify(capabilities)).not.toMatch(/provider_[ab]/);
  });

  it("a client's /api/health, with or without a guessed token, logs nothing more", async () => {
    for (const headers of [{}, { 'x-app-startup-probe': 'a'.repeat(22) }] as Array<Record<string, string>>) {
      expect((await fetch(`${host.url}/api/health`, { headers })).status).toBe(200);
    }
    // The host writes a guest's log line while the request is handled: by now it would be there.
    expect(warnings()).toHaveLength(2);
  });
});
