/**
 * The stream relay against the real component (an in-process host, so its relay statistics can
 * be read): many clients at one position cost one guest poll per command, a poll header sent by
 * a client is dropped, closed clients are freed at once, and concurrent commands never send a
 * stream backwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type RunningHost } from '../../host/app.ts';
import { loadConfig } from '../../host/config.ts';
import { jsonLogger } from '../../host/log.ts';
import { tempDataDir } from '../../harness/host-process.ts';
import { counterFrame, openSse, type SseClient } from '../../harness/sse.ts';

interface View {
  count: number;
  last_sequence: number;
}

let host: RunningHost;
let url: string;
const increment = async (): Promise<View> => {
  const response = await fetch(`${url}/api/counter/increment`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"amount":1}' });
  expect(response.status).toBe(200);
  return (await response.json()) as View;
};
const current = async (): Promise<View> => (await fetch(`${url}/api/counter/view`)).json() as Promise<View>;
const counterIds = (sse: SseClient) => sse.frames.filter((f) => f.event === 'counter').map((f) => Number(f.id));

beforeAll(async () => {
  const config = loadConfig(['--port', '0', '--data-dir', tempDataDir(), '--shutdown-grace-ms', '500'], {});
  host = await startHost(
    config,
    {},
    jsonLogger(() => undefined),
  );
  url = `http://127.0.0.1:${host.port}`;
});
afterAll(async () => {
  await host?.stop();
});

async function openMany(count: number, query = ''): Promise<SseClient[]> {
  const streams = await Promise.all(Array.from({ length: count }, () => openSse(`${url}/api/counter/stream${query}`)));
  await Promise.all(streams.map((sse) => sse.waitFor((f) => f.retry === '1000', 5_000)));
  return streams;
}

describe('stream relay', () => {
  it('serves many clients at one position with one guest poll per command, and holds no instance for them', async () => {
    const { last_sequence } = await current();
    const streams = await openMany(30, `?last_sequence=${last_sequence}`);
    try {
      await expect.poll(() => host.relay.stats, { timeout: 5_000 }).toMatchObject({ clients: 30, feeds: 1, channels: 1 });
      // Settled: the polls of clients that joined as the channel went live are over, no instance is busy.
      await expect
        .poll(
          async () => {
            const polls = host.relay.stats.polls;
            await new Promise((resolve) => setTimeout(resolve, 200));
            return host.relay.stats.polls === polls && host.pool.stats.busy === 0;
          },
          { timeout: 5_000 },
        )
        .toBe(true);
      const pollsBefore = host.relay.stats.polls;

      const view = await increment();
      await Promise.all(streams.map((sse) => sse.waitFor(counterFrame(view.last_sequence), 2_000)));
      // One command, one position: one poll (not 30).
      expect(host.relay.stats.polls - pollsBefore).toBe(1);
      for (const sse of streams) expect(counterIds(sse)).toEqual([view.last_sequence]);
    } finally {
      for (const sse of streams) sse.close();
    }
  });

  it('drops an x-app-relay-poll header sent by a client', async () => {
    const { last_sequence } = await current();
    // Were the header passed on, the guest would answer a poll (no retry hint) and the host would not hold the stream.
    const sse = await openSse(`${url}/api/counter/stream?last_sequence=${last_sequence}`, { 'x-app-relay-poll': '0' });
    try {
      await sse.waitFor((f) => f.retry === '1000');
      expect(counterIds(sse)).toEqual([]);
      const view = await increment();
      await sse.waitFor(counterFrame(view.last_sequence), 2_000);
    } finally {
      sse.close();
    }
  });

  it('frees closed clients at once, and their channel subscription with the last one', async () => {
    const streams = await openMany(5);
    await expect.poll(() => host.relay.stats.clients, { timeout: 5_000 }).toBe(5);
    for (const sse of streams) sse.close();
    await expect.poll(() => host.relay.stats, { timeout: 2_000, interval: 50 }).toMatchObject({ clients: 0, feeds: 0, channels: 0 });
  });

  it('never sends an older state, while concurrent commands race their wake-ups', async () => {
    const start = await current();
    const streams = await openMany(10, `?last_sequence=${start.last_sequence}`);
    try {
      const views = await Promise.all(Array.from({ length: 20 }, () => increment()));
      const last = Math.max(...views.map((v) => v.last_sequence));
      await Promise.all(streams.map((sse) => sse.waitFor(counterFrame(last), 5_000)));
      for (const sse of streams) {
        const ids = counterIds(sse);
        // Strictly increasing (coalesced, never repeated nor older), ending on the newest state.
        expect(ids.every((id, i) => i === 0 || id > ids[i - 1]!)).toBe(true);
        expect(ids.at(-1)).toBe(last);
        expect(ids[0]).toBeGreaterThan(start.last_sequence);
      }
    } finally {
      for (const sse of streams) sse.close();
    }
  });

  it('ends relayed streams at once on a graceful stop', async () => {
    const config = loadConfig(['--port', '0', '--data-dir', tempDataDir(), '--shutdown-grace-ms', '20000'], {});
    const other = await startHost(
      config,
      {},
      jsonLogger(() => undefined),
    );
    const sse = await openSse(`http://127.0.0.1:${other.port}/api/counter/stream`);
    await sse.waitFor((f) => f.retry === '1000');
    const stopping = Date.now();
    await other.stop();
    expect(Date.now() - stopping).toBeLessThan(5_000);
    sse.close();
  });
});
