/**
 * A client that closes its SSE connection is released promptly. With the stream relay (default)
 * the host drops it from its channel at once. With `--stream-relay off` the host ends the
 * guest's pending pub/sub wait, the guest writes, finds the body closed and stops, closing its
 * subscription — long before the 15 s keepalive write that used to be the first to notice.
 * Observed from outside through Redis: the host's subscriber leaves the channel once the last
 * stream on it has ended.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type HostProcess } from '../../harness/host-process.ts';
import { inCi, isolation, REDIS_URL, sharedServers } from '../../harness/servers.ts';
import { counterFrame, openSse } from '../../harness/sse.ts';

const unavailable = await sharedServers();
if (unavailable !== undefined && inCi) it('needs Redis under CI', () => expect.fail(unavailable));

// on: the host holds the streams (host/relay/); off: each stream's guest holds it (exchange scope).
describe.runIf(unavailable === undefined).each(['on', 'off'])('SSE client disconnect (--stream-relay %s)', (relay) => {
  const servers = isolation('disconnect');
  const channel = servers.channel();
  let host: HostProcess;
  const subscribers = async () => Number(((await servers.redis().pubsub('NUMSUB', channel)) as [string, number])[1]);

  beforeAll(async () => {
    // Shutdown waits for in-flight exchanges up to the grace period: a stream still held would show.
    host = await startHost({ args: ['--realtime', 'redis', '--redis-url', REDIS_URL, '--redis-channel', channel, '--shutdown-grace-ms', '20000', '--stream-relay', relay] });
  });
  afterAll(async () => {
    await host?.kill();
    await servers.cleanup();
  });

  it('ends the guest of a closed stream within a few seconds, not at the 15 s keepalive', async () => {
    const streams = await Promise.all([1, 2, 3].map(() => openSse(`${host.url}/api/counter/stream`)));
    await Promise.all(streams.map((sse) => sse.waitFor((f) => f.retry === '1000')));
    await expect.poll(subscribers, { timeout: 5_000 }).toBe(1);

    const response = await fetch(`${host.url}/api/counter/increment`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"amount":1}' });
    const { last_sequence } = (await response.json()) as { last_sequence: number };
    await Promise.all(streams.map((sse) => sse.waitFor(counterFrame(last_sequence), 1_000)));

    const closedAt = Date.now();
    for (const sse of streams) sse.close();
    // Every guest closed its subscription: the host's subscriber leaves the channel.
    await expect.poll(subscribers, { timeout: 5_000, interval: 100 }).toBe(0);
    expect(Date.now() - closedAt).toBeLessThan(5_000);

    // Nothing is left in flight: a graceful stop finishes at once instead of waiting out the grace period.
    const stopping = Date.now();
    expect(await host.stop()).toBe(0);
    expect(Date.now() - stopping).toBeLessThan(5_000);
  });
});
