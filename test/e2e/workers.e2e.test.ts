/**
 * --workers 2: two worker threads, each a whole host, share one port (SO_REUSEPORT). Both serve,
 * writes from both keep the store contiguous, a command on one thread reaches SSE clients on
 * every thread (--realtime local fans out across threads), and shutdown drains both.
 */
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runHostCli, startHost, type HostProcess } from '../../harness/host-process.ts';
import { counterFrame, openSse, type SseClient } from '../../harness/sse.ts';

let host: HostProcess | undefined;
afterEach(async () => {
  await host?.kill();
  host = undefined;
});

const increment = async (url: string) => {
  const response = await fetch(`${url}/api/counter/increment`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"amount":1}' });
  expect(response.status).toBe(200);
  return (await response.json()) as { count: number; last_sequence: number };
};

/**
 * Admission is test/admission/'s subject, not this file's. With `--workers 2` each thread gets half
 * the memory budget and may get two instances; the default queue (at least 64) holds the 16
 * clients, and on a loaded machine a queued increment may wait longer than the default 5 s.
 */
const PATIENT = ['--admission-wait-ms', '60000'];

const runsPerWorker = (h: HostProcess) => h.logs().find((l) => l['code'] === 'workers_stopped')?.['runs_per_worker'] as number[] | undefined;

describe('--workers 2', () => {
  it('serves from both threads; 16 clients × 50 increments → 800, contiguous; exits 0 after draining', { timeout: 120_000 }, async () => {
    host = await startHost({ args: ['--workers', '2', ...PATIENT] });
    expect(host.logs().find((l) => l['code'] === 'host_listening')?.['workers']).toBe(2);
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        for (let i = 0; i < 50; i++) await increment(host!.url);
      }),
    );
    const view = (await (await fetch(`${host.url}/api/counter/view`)).json()) as { count: number; last_sequence: number };
    expect(view).toMatchObject({ count: 800, last_sequence: 800 });
    expect(await host.stop()).toBe(0);

    // 16 connections spread by the kernel: both threads served (odds of one idle thread: 2^-15).
    const runs = runsPerWorker(host);
    expect(runs).toHaveLength(2);
    for (const n of runs!) expect(n).toBeGreaterThan(0);
    expect(runs!.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(801);

    const db = new DatabaseSync(join(host.dataDir, 'app.sqlite'), { readOnly: true });
    try {
      const rows = db.prepare("SELECT sequence, revision FROM app_events WHERE stream_id = 'counter-global' ORDER BY sequence").all() as Array<{
        sequence: number;
        revision: number;
      }>;
      expect(rows.map((r) => [Number(r.sequence), Number(r.revision)])).toEqual(Array.from({ length: 800 }, (_, i) => [i + 1, i + 1]));
    } finally {
      db.close();
    }
  });

  // Without the cross-thread fan-out a stream on the other thread never gets the frame; the 5 s bound
  // only keeps a failure from waiting for the test timeout (1 s flaked on a loaded CI runner).
  it('an increment on any thread reaches SSE clients on every thread', async () => {
    host = await startHost({ args: ['--workers', '2', '--realtime', 'local', ...PATIENT] });
    // 12 streams on 12 connections: the odds that they all share the POST's thread are 2^-12.
    const streams: SseClient[] = await Promise.all(Array.from({ length: 12 }, () => openSse(`${host!.url}/api/counter/stream`)));
    try {
      await Promise.all(streams.map((s) => s.waitFor((f) => f.retry === '1000')));
      for (let round = 0; round < 3; round++) {
        const { last_sequence } = await increment(host.url);
        await Promise.all(streams.map((s) => s.waitFor(counterFrame(last_sequence), 5_000)));
      }
    } finally {
      for (const s of streams) s.close();
    }
    expect(await host.stop()).toBe(0);
  });

  it('rejects a bad --workers value with exit code 2, and accepts auto', async () => {
    for (const bad of ['0', 'many', '65']) {
      const { code, output } = await runHostCli(['--workers', bad]);
      expect(code).toBe(2);
      expect(output).toContain('--workers (WORKERS)');
      expect(output).toContain('auto or a whole number 1-64');
    }
    host = await startHost({ args: ['--workers', 'auto', '--instances-min', '1'] });
    expect(Number(host.logs().find((l) => l['code'] === 'host_listening')?.['workers'])).toBeGreaterThanOrEqual(1);
    expect((await fetch(`${host.url}/api/counter/view`)).status).toBe(200);
  });
});
