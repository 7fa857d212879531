/** `GET /api/counter/stream` against the real host: headers, frames, catch-up, resume, live updates per realtime mode. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type HostProcess } from '../../harness/host-process.ts';
import { counterFrame, openSse } from '../../harness/sse.ts';

// Open streams end only at the grace period on shutdown (in polling and off modes a closed client is noticed at the next write).
const SHORT_GRACE = ['--shutdown-grace-ms', '500'];

const increment = (url: string, amount = 1) =>
  fetch(`${url}/api/counter/increment`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ amount }) }).then(
    (r) => r.json() as Promise<{ last_sequence: number; count: number }>,
  );

describe('SSE stream (realtime local)', () => {
  let host: HostProcess;
  beforeAll(async () => {
    host = await startHost({ args: SHORT_GRACE });
  });
  afterAll(async () => {
    await host?.stop();
  });

  it('answers with event-stream headers, a retry hint and no catch-up frame on an empty store', async () => {
    const sse = await openSse(`${host.url}/api/counter/stream`);
    try {
      expect(sse.response.status).toBe(200);
      expect(sse.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(sse.response.headers.get('cache-control')).toBe('no-cache, no-transform');
      expect(sse.response.headers.get('connection') ?? 'keep-alive').not.toMatch(/upgrade/i);
      await sse.waitFor((f) => f.retry === '1000');
      expect(sse.frames.some((f) => f.event === 'counter')).toBe(false);
    } finally {
      sse.close();
    }
  });

  it('delivers a command made elsewhere within 1 s, as one frame with the whole state', async () => {
    const sse = await openSse(`${host.url}/api/counter/stream`);
    try {
      await sse.waitFor((f) => f.retry === '1000');
      const view = await increment(host.url, 4);
      const frame = await sse.waitFor(counterFrame(view.last_sequence), 1_000);
      const data = JSON.parse(frame.data!) as { view: { count: number; last_sequence: number }; last_sequence: number };
      expect(frame.id).toBe(String(view.last_sequence));
      expect(data.last_sequence).toBe(view.last_sequence);
      expect(data.view.count).toBe(view.count);
    } finally {
      sse.close();
    }
  });

  it('sends one catch-up frame from last_sequence or Last-Event-ID, and never an older state', async () => {
    const first = await increment(host.url);
    const second = await increment(host.url);
    const fromQuery = await openSse(`${host.url}/api/counter/stream?last_sequence=${first.last_sequence}`);
    const fromHeader = await openSse(`${host.url}/api/counter/stream?last_sequence=0`, { 'last-event-id': String(first.last_sequence) });
    const upToDate = await openSse(`${host.url}/api/counter/stream`, { 'last-event-id': String(second.last_sequence) });
    try {
      for (const sse of [fromQuery, fromHeader]) {
        const frame = await sse.waitFor(counterFrame(second.last_sequence));
        expect(JSON.parse(frame.data!).view.count).toBe(second.count);
      }
      await upToDate.waitFor((f) => f.retry === '1000');
      const third = await increment(host.url);
      await upToDate.waitFor(counterFrame(third.last_sequence), 1_000);
      const ids = upToDate.frames.filter((f) => f.event === 'counter').map((f) => Number(f.id));
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(ids[0]).toBeGreaterThan(second.last_sequence);
    } finally {
      fromQuery.close();
      fromHeader.close();
      upToDate.close();
    }
  });

  it('rejects a start position that is not an unsigned integer with 400', async () => {
    for (const [query, headers] of [
      ['?last_sequence=-1', {}],
      ['?last_sequence=abc', {}],
      ['', { 'last-event-id': '1.5' }],
    ] as const) {
      const response = await fetch(`${host.url}/api/counter/stream${query}`, { headers });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('validation');
    }
  });
});

describe('SSE stream in polling and off modes', () => {
  it('polling: updates arrive by re-reading the store', async () => {
    const host = await startHost({ args: ['--realtime', 'polling', ...SHORT_GRACE] });
    const sse = await openSse(`${host.url}/api/counter/stream`);
    try {
      await sse.waitFor((f) => f.retry === '1000');
      const view = await increment(host.url, 2);
      await sse.waitFor(counterFrame(view.last_sequence), 1_000);
    } finally {
      sse.close();
      await host.stop();
    }
  });

  it('off: realtime_enabled is false and the stream only catches up', async () => {
    const host = await startHost({ args: ['--realtime', 'off', ...SHORT_GRACE] });
    try {
      const view = await increment(host.url, 2);
      expect((view as unknown as { realtime_enabled: boolean }).realtime_enabled).toBe(false);
      const sse = await openSse(`${host.url}/api/counter/stream`);
      await sse.waitFor(counterFrame(view.last_sequence));
      const next = await increment(host.url, 1);
      await new Promise((r) => setTimeout(r, 700));
      expect(sse.frames.some((f) => f.event === 'counter' && Number(f.id) === next.last_sequence)).toBe(false);
      sse.close();
    } finally {
      await host.stop();
    }
  });
});
