/**
 * /readyz of a real host process: 503 while PostgreSQL (reached through a TCP proxy that the
 * test cuts) or, with --realtime redis, Redis does not answer, 200 again once they are back
 * (the host reconnects by itself); and 503 `stopping` from the start of a graceful stop while
 * the host still drains an open exchange. States only: every wait is a poll with a generous limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startHost, type HostProcess } from '../../harness/host-process.ts';
import { scrape } from '../support/prometheus.ts';
import { inCi, isolation, POSTGRES_URL, REDIS_URL, sharedServers } from '../../harness/servers.ts';
import { openSse } from '../../harness/sse.ts';
import { startTcpProxy, targetOf, type TcpProxy } from '../support/tcp-proxy.ts';

const readyz = async (metricsUrl: string) => {
  const response = await fetch(`${metricsUrl}/readyz`);
  return { status: response.status, body: (await response.json()) as { status: string; dependencies: Record<string, boolean> } };
};
const POLL = { timeout: 15_000, interval: 200 };

const unavailable = await sharedServers();
if (unavailable !== undefined && inCi) it('needs PostgreSQL and Redis under CI', () => expect.fail(unavailable));

describe.runIf(unavailable === undefined)('/readyz with PostgreSQL and Redis cut between the host and the server', () => {
  const servers = isolation('readiness');
  let postgresProxy: TcpProxy;
  let redisProxy: TcpProxy;
  let host: HostProcess;
  let metricsUrl: string;

  beforeAll(async () => {
    postgresProxy = await startTcpProxy(targetOf(POSTGRES_URL, 5432));
    redisProxy = await startTcpProxy(targetOf(REDIS_URL, 6379));
    const metricsPort = await freePort();
    metricsUrl = `http://127.0.0.1:${metricsPort}`;
    host = await startHost({
      args: [
        ...['--db', 'postgres', '--postgres-url', postgresProxy.url(POSTGRES_URL), '--postgres-schema', servers.schema()],
        ...['--realtime', 'redis', '--redis-url', redisProxy.url(REDIS_URL), '--redis-channel', servers.channel()],
        ...['--metrics-port', String(metricsPort), '--shutdown-grace-ms', '500'],
      ],
    });
  });
  afterAll(async () => {
    await host?.stop();
    await postgresProxy?.close();
    await redisProxy?.close();
    await servers.cleanup();
  });

  it('PostgreSQL cut: 503 naming the store, then 200 once it is back', async () => {
    await expect.poll(() => readyz(metricsUrl), POLL).toEqual({ status: 200, body: { status: 'ready', dependencies: { store: true, realtime: true } } });
    await postgresProxy.cut();
    await expect.poll(() => readyz(metricsUrl), POLL).toEqual({ status: 503, body: { status: 'not_ready', dependencies: { store: false, realtime: true } } });
    expect((await scrape(metricsUrl)).value('host_dependency_up', { dependency: 'store' })).toBe(0);
    // Liveness does not depend on the store: a restart would not help.
    expect((await fetch(`${metricsUrl}/livez`)).status).toBe(200);
    await postgresProxy.restore();
    await expect.poll(() => readyz(metricsUrl), POLL).toEqual({ status: 200, body: { status: 'ready', dependencies: { store: true, realtime: true } } });
    expect((await scrape(metricsUrl)).value('host_dependency_up', { dependency: 'store' })).toBe(1);
  });

  it('Redis cut (--realtime redis): 503 naming the broker, then 200 once it is back', async () => {
    await redisProxy.cut();
    await expect.poll(() => readyz(metricsUrl), POLL).toEqual({ status: 503, body: { status: 'not_ready', dependencies: { store: true, realtime: false } } });
    await redisProxy.restore();
    await expect.poll(() => readyz(metricsUrl), POLL).toEqual({ status: 200, body: { status: 'ready', dependencies: { store: true, realtime: true } } });
  });
});

describe('/readyz during a graceful stop', () => {
  it('answers 503 stopping while the host drains, and the host still exits 0', async () => {
    const metricsPort = await freePort();
    const metricsUrl = `http://127.0.0.1:${metricsPort}`;
    // Without the relay an open stream is an in-flight exchange: shutdown waits for it.
    const host = await startHost({ args: ['--metrics-port', String(metricsPort), '--stream-relay', 'off', '--shutdown-grace-ms', '60000'] });
    try {
      const sse = await openSse(`${host.url}/api/counter/stream`);
      await sse.waitFor((f) => f.retry === '1000');
      expect((await readyz(metricsUrl)).status).toBe(200);
      const exited = host.stop();
      await expect.poll(() => readyz(metricsUrl), POLL).toEqual({ status: 503, body: { status: 'stopping', dependencies: {} } });
      expect(host.logs().some((l) => l['code'] === 'host_stopped')).toBe(false);
      sse.close();
      expect(await exited).toBe(0);
    } finally {
      await host.kill();
    }
  });
});
