/**
 * Faults against a real host process on PostgreSQL + Redis, each reached through a TCP proxy
 * that can cut the connection (the shared servers themselves are never stopped):
 *
 * - Redis cut: commands still answer 200, the publish failure is logged `realtime_publish_failed`,
 *   open SSE streams keep receiving new states by re-reading the store on an interval, and go back
 *   to push when Redis returns (the host's subscriber reconnects by itself).
 * - PostgreSQL cut: REST answers 503 `store`, the host stays up and recovers by itself.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type HostProcess } from '../../harness/host-process.ts';
import { inCi, isolation, POSTGRES_URL, REDIS_URL, sharedServers } from '../../harness/servers.ts';
import { counterFrame, openSse } from '../../harness/sse.ts';
import { startTcpProxy, targetOf, type TcpProxy } from '../support/tcp-proxy.ts';

interface View {
  count: number;
  last_sequence: number;
}

const post = (url: string) => fetch(`${url}/api/counter/increment`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"amount":1}' });
async function increment(url: string): Promise<View> {
  const response = await post(url);
  expect(response.status).toBe(200);
  return (await response.json()) as View;
}

const unavailable = await sharedServers();
if (unavailable !== undefined && inCi) it('needs PostgreSQL and Redis under CI', () => expect.fail(unavailable));

describe.runIf(unavailable === undefined)('faults: Redis and PostgreSQL cut between the host and the server', () => {
  const servers = isolation('faults');
  const channel = servers.channel();
  let postgresProxy: TcpProxy;
  let redisProxy: TcpProxy;
  let host: HostProcess;

  const logsWith = (code: string) => host.logs().filter((line) => line['code'] === code);
  const subscribers = async () => Number(((await servers.redis().pubsub('NUMSUB', channel)) as [string, number])[1]);

  beforeAll(async () => {
    postgresProxy = await startTcpProxy(targetOf(POSTGRES_URL, 5432));
    redisProxy = await startTcpProxy(targetOf(REDIS_URL, 6379));
    host = await startHost({
      args: [
        '--db',
        'postgres',
        '--postgres-url',
        postgresProxy.url(POSTGRES_URL),
        '--postgres-schema',
        servers.schema(),
        '--realtime',
        'redis',
        '--redis-url',
        redisProxy.url(REDIS_URL),
        '--redis-channel',
        channel,
        '--shutdown-grace-ms',
        '500',
      ],
    });
  });
  afterEach(async () => {
    await postgresProxy.restore();
    await redisProxy.restore();
  });
  afterAll(async () => {
    await host?.stop();
    await postgresProxy?.close();
    await redisProxy?.close();
    await servers.cleanup();
  });

  it('Redis cut: commands succeed, the publish failure is logged, streams fall back to the store and return to push', async () => {
    const sse = await openSse(`${host.url}/api/counter/stream`);
    try {
      await sse.waitFor((f) => f.retry === '1000');
      await expect.poll(subscribers, { timeout: 5_000 }).toBe(1);
      const pushed = await increment(host.url);
      await sse.waitFor(counterFrame(pushed.last_sequence), 1_000);

      await redisProxy.cut();
      const duringCut = await increment(host.url);
      await expect.poll(() => logsWith('realtime_publish_failed').length).toBeGreaterThan(0);
      // No wake-up can arrive: the stream gets the new state by re-reading the store.
      await sse.waitFor(counterFrame(duringCut.last_sequence), 5_000);
      const later = await increment(host.url);
      await sse.waitFor(counterFrame(later.last_sequence), 5_000);
      expect(logsWith('realtime_subscribe_failed').length).toBeGreaterThan(0);

      await redisProxy.restore();
      // The host's subscriber reconnects on its own and the stream subscribes again.
      await expect.poll(() => logsWith('realtime_resubscribed').length, { timeout: 15_000 }).toBeGreaterThan(0);
      await expect.poll(subscribers, { timeout: 5_000 }).toBe(1);
      const failuresBefore = logsWith('realtime_publish_failed').length;
      const afterRestore = await increment(host.url);
      await sse.waitFor(counterFrame(afterRestore.last_sequence), 1_000);
      expect(logsWith('realtime_publish_failed').length).toBe(failuresBefore);

      const ids = sse.frames.filter((f) => f.event === 'counter').map((f) => Number(f.id));
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(host.child.exitCode).toBeNull();
    } finally {
      sse.close();
    }
  });

  it('PostgreSQL cut: REST answers 503 store, the host stays up and recovers by itself', async () => {
    const before = await increment(host.url);
    const sse = await openSse(`${host.url}/api/counter/stream?last_sequence=${before.last_sequence}`);
    try {
      await sse.waitFor((f) => f.retry === '1000');
      await postgresProxy.cut();

      for (const response of [await fetch(`${host.url}/api/counter/view`), await post(host.url)]) {
        expect(response.status).toBe(503);
        expect(((await response.json()) as { error: { code: string } }).error.code).toBe('store');
      }
      expect(host.child.exitCode).toBeNull();

      await postgresProxy.restore();
      await expect.poll(async () => (await fetch(`${host.url}/api/counter/view`)).status, { timeout: 10_000 }).toBe(200);
      const after = await increment(host.url);
      expect(after.count).toBe(before.count + 1);
      await sse.waitFor(counterFrame(after.last_sequence), 1_000);
    } finally {
      sse.close();
    }
  });
});
