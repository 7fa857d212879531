/**
 * Two host processes on different ports sharing one PostgreSQL store (a random schema) and one
 * Redis channel (random): a command on either host reaches SSE clients on the other within 1 s,
 * and both hosts agree on the count after concurrent commands on both.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type HostProcess } from '../../harness/host-process.ts';
import { inCi, isolation, POSTGRES_URL, REDIS_URL, sharedServers } from '../../harness/servers.ts';
import { counterFrame, openSse, type SseClient } from '../../harness/sse.ts';

interface View {
  count: number;
  last_sequence: number;
}

const increment = async (url: string, amount = 1): Promise<View> => {
  const response = await fetch(`${url}/api/counter/increment`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ amount }) });
  expect(response.status).toBe(200);
  return (await response.json()) as View;
};
const view = async (url: string): Promise<View> => (await fetch(`${url}/api/counter/view`)).json() as Promise<View>;
const dataOf = (sse: SseClient, sequence: number) => sse.waitFor(counterFrame(sequence), 1_000).then((f) => JSON.parse(f.data!) as { view: View });

const unavailable = await sharedServers();
if (unavailable !== undefined && inCi) it('needs PostgreSQL and Redis under CI', () => expect.fail(unavailable));

describe.runIf(unavailable === undefined)('several hosts sharing PostgreSQL and Redis', () => {
  const servers = isolation('hosts');
  const channel = servers.channel();
  let a: HostProcess;
  let b: HostProcess;

  beforeAll(async () => {
    const args = [
      '--db',
      'postgres',
      '--postgres-url',
      POSTGRES_URL,
      '--postgres-schema',
      servers.schema(),
      '--realtime',
      'redis',
      '--redis-url',
      REDIS_URL,
      '--redis-channel',
      channel,
      '--shutdown-grace-ms',
      '500',
      // Every command must be answered: shedding (503 once a request waited 5 s for an instance,
      // which a loaded 2-core machine reaches) is test/admission/'s subject, not this file's.
      '--admission-wait-ms',
      '60000',
    ];
    // Both start together: the schema's migrations run once under PostgreSQL's advisory lock.
    [a, b] = await Promise.all([startHost({ args }), startHost({ args })]);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await servers.cleanup();
  });

  it('an increment on host A reaches an SSE client of host B within 1 s, and the reverse', async () => {
    const onA = await openSse(`${a.url}/api/counter/stream`);
    const onB = await openSse(`${b.url}/api/counter/stream`);
    try {
      await Promise.all([onA, onB].map((sse) => sse.waitFor((f) => f.retry === '1000')));
      // The retry hint is sent before the subscription exists: give the first wait a moment to subscribe.
      await waitForSubscribers(2);

      const fromA = await increment(a.url, 3);
      expect((await dataOf(onB, fromA.last_sequence)).view.count).toBe(fromA.count);

      const fromB = await increment(b.url, 4);
      expect((await dataOf(onA, fromB.last_sequence)).view.count).toBe(fromB.count);
      expect(fromB.count).toBe(fromA.count + 4);
    } finally {
      onA.close();
      onB.close();
    }
  });

  it('both hosts agree after concurrent commands on both, and their streams end on the same state', async () => {
    const before = await view(a.url);
    const onA = await openSse(`${a.url}/api/counter/stream?last_sequence=${before.last_sequence}`);
    const onB = await openSse(`${b.url}/api/counter/stream?last_sequence=${before.last_sequence}`);
    try {
      const perHost = 25;
      await Promise.all(
        [a, b].flatMap((host) =>
          Array.from({ length: 5 }, async () => {
            for (let i = 0; i < perHost / 5; i++) await increment(host.url);
          }),
        ),
      );
      const [viewA, viewB] = await Promise.all([view(a.url), view(b.url)]);
      expect(viewA).toEqual(viewB);
      expect(viewA.count).toBe(before.count + 2 * perHost);
      expect(viewA.last_sequence).toBe(before.last_sequence + 2 * perHost);
      for (const sse of [onA, onB]) {
        expect((await dataOf(sse, viewA.last_sequence)).view.count).toBe(viewA.count);
        const ids = sse.frames.filter((f) => f.event === 'counter').map((f) => Number(f.id));
        expect(ids).toEqual([...ids].sort((x, y) => x - y)); // never an older state
      }
    } finally {
      onA.close();
      onB.close();
    }
  });

  /** Until the channel has `n` subscriber connections on the server (one per host process). */
  async function waitForSubscribers(n: number): Promise<void> {
    const subscribers = async () => Number(((await servers.redis().pubsub('NUMSUB', channel)) as [string, number])[1]);
    await expect.poll(subscribers, { timeout: 5_000 }).toBeGreaterThanOrEqual(n);
  }
});
