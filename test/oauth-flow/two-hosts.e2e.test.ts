/**
 * Two hosts on one store (PostgreSQL schema or Redis prefix of their own): a state created on
 * host A is consumed exactly once when its callback reaches A and B at the same moment — one
 * session, one 409 — and a session issued by one host is valid on the other.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startOAuthFixture } from '../support/oauth-provider/fixture.ts';
import { followAuthorization } from '../support/oauth-provider/follow-authorization.ts';
import { freePort, startHost, type HostProcess } from '../../harness/host-process.ts';
import { inCi, isolation, POSTGRES_URL, REDIS_URL, sharedServers } from '../../harness/servers.ts';
import { deliver, rememberBrowser, sessionCookieOf, OPERATOR_ENV } from './support.ts';

const unavailable = await sharedServers();
if (unavailable && inCi) throw new Error(`PostgreSQL and Redis are required under CI=true: ${unavailable}`);
const iso = isolation('oauthflow');
afterAll(() => iso.cleanup());

const backends: Array<[string, () => string[]]> = [
  ['postgres', () => ['--db', 'postgres', '--postgres-url', POSTGRES_URL, '--postgres-schema', iso.schema()]],
  ['redis', () => ['--db', 'redis', '--redis-url', REDIS_URL, '--redis-prefix', iso.prefix(), '--redis-channel', iso.channel()]],
];

describe.skipIf(unavailable !== undefined).each(backends)('two hosts on %s', (_name, storeArgs) => {
  it('a callback racing on both hosts consumes its state once; sessions work on either host', async () => {
    const port = await freePort();
    const fixture = await startOAuthFixture(`http://127.0.0.1:${port}`);
    const args = storeArgs();
    const env = { ...fixture.env, ...OPERATOR_ENV };
    const hosts: HostProcess[] = [];
    try {
      hosts.push(await startHost({ port, args, env, timeoutMs: 60_000 }));
      hosts.push(await startHost({ args, env, timeoutMs: 60_000 }));
      const [a, b] = hosts as [HostProcess, HostProcess];
      for (const provider of ['provider_a', 'provider_b', 'provider_c'] as const) {
        const start = await fetch(`${a.url}/api/auth/oauth/${provider}/start`, { redirect: 'manual' });
        rememberBrowser(start, start.headers.get('location')!);
        const callback = await followAuthorization(start.headers.get('location')!);
        const onB = callback.target.replace(a.url, b.url);
        const responses = await Promise.all([deliver(callback.target, callback.method, callback.params, true), deliver(onB, callback.method, callback.params, true)]);
        const statuses = responses.map((r) => r.status);
        expect(
          statuses.filter((s) => s === 409),
          `${provider}: ${statuses.join(', ')}`,
        ).toHaveLength(1);
        expect(statuses.filter((s) => s === 302 || s === 303)).toHaveLength(1);
        const sessionId = responses.map(sessionCookieOf).find(Boolean)!;
        expect(responses.filter((r) => sessionCookieOf(r))).toHaveLength(1);
        for (const host of hosts) {
          const session = (await (await fetch(`${host.url}/api/auth/session`, { headers: { cookie: `wasi_auth_dev_session=${sessionId}` } })).json()) as Record<string, unknown>;
          expect(session).toMatchObject({ authenticated: true, method: `oauth:${provider}` });
        }
      }
    } finally {
      await Promise.all(hosts.map((h) => h.stop()));
      await fixture.provider.stop();
    }
  }, 120_000);
});
