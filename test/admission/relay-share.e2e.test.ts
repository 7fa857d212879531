/**
 * The attack: one client holds a hundred SSE streams (under the per-client exchange limit) and
 * reads them all, so each write anyone makes costs the host a hundred frame writes. Its streams
 * get only their client's share of the relay's writes (host/relay/client-share.ts: 625 frames a
 * second for a client at the default 5,000), while another client's one stream gets every write at
 * once, and every stream ends on the newest state.
 *
 * Clients connect from distinct loopback addresses (Linux routes all of 127/8 to loopback): the
 * heavy client from 127.0.0.2, the light one from 127.0.0.3, the writer from 127.0.0.1.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startHost, type HostProcess } from '../../harness/host-process.ts';
import { openCounterStream, type CounterFrames } from '../support/sse-from.ts';

const HEAVY = '127.0.0.2';
const LIGHT = '127.0.0.3';
const HEAVY_STREAMS = 100;
/** A client's share at the default 5,000 writes/s (an eighth), and its bucket (a quarter second of it). */
const SHARE_PER_SECOND = 625;
const BURST = 157;

const open: CounterFrames[] = [];
let host: HostProcess | undefined;
afterEach(async () => {
  for (const stream of open.splice(0)) stream.close();
  await host?.stop();
  host = undefined;
});

async function increment(url: string): Promise<number> {
  const response = await fetch(`${url}/api/counter/increment`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"amount":1}' });
  expect(response.status).toBe(200);
  return ((await response.json()) as { last_sequence: number }).last_sequence;
}

describe("each client's share of the relay's writes", () => {
  it('keeps a client with a hundred streams to its share, while another client sees every write promptly', { timeout: 90_000 }, async () => {
    host = await startHost();
    const started = await increment(host.url);
    const heavy: CounterFrames[] = [];
    for (let i = 0; i < HEAVY_STREAMS; i += 25) {
      const batch = Array.from({ length: 25 }, () => openCounterStream(host!.port, HEAVY));
      open.push(...batch);
      heavy.push(...batch);
      await Promise.all(batch.map((s) => s.opened));
    }
    const light = openCounterStream(host.port, LIGHT);
    open.push(light);
    await light.opened;
    await new Promise((resolve) => setTimeout(resolve, 500));

    // 100 writes, one every 40 ms: 2,500 frames a second for the heavy client without its share.
    const from = performance.now();
    const delays: number[] = [];
    let last = started;
    for (let i = 0; i < 100; i++) {
      const next = performance.now() + 40;
      const sequence = await increment(host.url);
      const sent = performance.now();
      last = sequence;
      void waitForId(light, sequence, 5_000).then((at) => delays.push(at - sent));
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - performance.now())));
    }
    const to = performance.now();
    const seconds = (to - from) / 1000;

    // Every stream ends on the newest state, and none ever went backwards.
    for (const stream of [light, ...heavy]) await waitForId(stream, last, 10_000);
    for (const stream of [light, ...heavy]) expect(stream.frames.every((f, i) => i === 0 || f.id > stream.frames[i - 1]!.id)).toBe(true);
    // The light client saw each write promptly (a newer state at the latest), on two shared cores.
    expect(delays).toHaveLength(100);
    const sorted = delays.toSorted((a, b) => a - b);
    expect(sorted[50]!).toBeLessThan(100);
    expect(sorted.at(-1)!).toBeLessThan(1_000);
    // The heavy client's frames while the writes went on: within its share (and one bucket), not 2,500/s.
    const heavyFrames = heavy.reduce((n, s) => n + s.frames.filter((f) => f.id > started && f.at >= from && f.at <= to).length, 0);
    expect(heavyFrames / seconds).toBeLessThanOrEqual(SHARE_PER_SECOND + BURST / seconds + 50);
  });
});

async function waitForId(stream: CounterFrames, id: number, timeoutMs: number): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const found = stream.frames.find((f) => f.id >= id);
    if (found) return found.at;
    if (performance.now() > deadline) throw new Error(`no frame with id ≥ ${id} within ${timeoutMs} ms; the last: ${stream.frames.at(-1)?.id}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
