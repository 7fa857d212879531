/**
 * The admission queue: clients served in turn (each FIFO), bounded, a deadline per waiter, a departed client leaves at once;
 * and the pool's use of it: a bounded share for long-lived exchanges, refusals counted and
 * logged once per interval. Fake instances and vitest's fake clock.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HostLogger } from '../log.ts';
import { type GuestInstance, InstancePool } from '../guest/pool.ts';
import { REFUSAL_LOG_INTERVAL_MS } from './refusal-log.ts';
import { AdmissionRefused, laneQueues, WaitQueue } from './wait-queue.ts';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const reasonOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'admitted',
    (error: unknown) => (error instanceof AdmissionRefused ? error.reason : String(error)),
  );

describe('WaitQueue', () => {
  it('hands values in arrival order', async () => {
    const queue = new WaitQueue<string>({ maxLength: 10, maxWaitMs: 1_000 });
    const first = queue.enter();
    const second = queue.enter();
    queue.take()!.give('a');
    queue.take()!.give('b');
    expect(await Promise.all([first, second])).toEqual(['a', 'b']);
    expect(queue.take()).toBeUndefined();
  });

  it('serves clients in turn, the waiters of each in arrival order', async () => {
    const queue = new WaitQueue<string>({ maxLength: 10, maxWaitMs: 1_000 });
    // `a` queued a backlog before `b` and `c` came.
    const order: string[] = [];
    const enter = (client: string, n: number) => void queue.enter(undefined, client).then(() => order.push(`${client}${n}`));
    enter('a', 1);
    enter('a', 2);
    enter('a', 3);
    enter('b', 1);
    enter('c', 1);
    enter('b', 2);
    for (let i = 0; i < 6; i++) queue.take()!.give('x');
    await vi.advanceTimersByTimeAsync(0);
    expect(order).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
    expect(queue.length).toBe(0);
  });

  it('keeps the round when a waiter leaves or a line empties', async () => {
    const queue = new WaitQueue<string>({ maxLength: 10, maxWaitMs: 1_000 });
    const left = new AbortController();
    const leaving = reasonOf(queue.enter(left.signal, 'a'));
    const b = queue.enter(undefined, 'b');
    const a = queue.enter(undefined, 'a');
    left.abort();
    expect(await leaving).toBe('departed');
    expect(queue.length).toBe(2);
    queue.take()!.give('first');
    queue.take()!.give('second');
    expect(await Promise.all([a, b])).toEqual(['first', 'second']);
  });

  it('refuses beyond its bound at once', async () => {
    const queue = new WaitQueue<string>({ maxLength: 2, maxWaitMs: 1_000 });
    const waiting = [queue.enter(), queue.enter()];
    expect(await reasonOf(queue.enter())).toBe('queue_full');
    expect(queue.length).toBe(2);
    queue.refuseAll('stopping');
    expect(await Promise.all(waiting.map(reasonOf))).toEqual(['stopping', 'stopping']);
  });

  it('refuses a waiter at its deadline, not before', async () => {
    const queue = new WaitQueue<string>({ maxLength: 2, maxWaitMs: 1_000 });
    const outcome = reasonOf(queue.enter());
    await vi.advanceTimersByTimeAsync(999);
    expect(queue.length).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await outcome).toBe('deadline');
    expect(queue.length).toBe(0);
  });

  it('lets a departed client leave at once, and the next in line is served', async () => {
    const queue = new WaitQueue<string>({ maxLength: 2, maxWaitMs: 1_000 });
    const client = new AbortController();
    const leaving = reasonOf(queue.enter(client.signal));
    const staying = queue.enter();
    client.abort();
    expect(await leaving).toBe('departed');
    expect(queue.length).toBe(1);
    queue.take()!.give('x');
    expect(await staying).toBe('x');
    expect(await reasonOf(queue.enter(client.signal))).toBe('departed');
  });
});

function pool(options: { max: number; streamMax: number; queueLength: number; queueWaitMs: number }) {
  const logs: Array<Record<string, unknown>> = [];
  const logger: HostLogger = { log: (level, _msg, fields) => logs.push({ level, ...fields }) };
  const fake = (): GuestInstance => ({ handle: async () => undefined, stats: () => ({ handles: 0, captured: 0, createdReps: 0, memoryBytes: 0 }) });
  return { pool: new InstancePool(async () => fake(), { min: 0, ...options, queues: laneQueues() }, logger), logs };
}

/** Runs an exchange that holds its instance until `release()`. */
function hold(p: InstancePool, lane: 'request' | 'stream') {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let started = false;
  const done = p.run(
    () => {
      started = true;
      return held;
    },
    { lane },
  );
  return { done, release, started: () => started };
}

describe('InstancePool admission', () => {
  it('keeps long-lived exchanges within their share, so ordinary requests still get instances', async () => {
    const { pool: p } = pool({ max: 4, streamMax: 2, queueLength: 8, queueWaitMs: 5_000 });
    const streams = [hold(p, 'stream'), hold(p, 'stream'), hold(p, 'stream')];
    await vi.advanceTimersByTimeAsync(0);
    expect(streams.map((s) => s.started())).toEqual([true, true, false]);
    const requests = [hold(p, 'request'), hold(p, 'request')];
    await vi.advanceTimersByTimeAsync(0);
    expect(requests.map((r) => r.started())).toEqual([true, true]);
    expect(p.stats).toMatchObject({ alive: 4, busy: 4, streamBusy: 2, waiting: 1 });
    // A stream ends: the waiting one takes its place.
    streams[0]!.release();
    await vi.advanceTimersByTimeAsync(0);
    expect(streams[2]!.started()).toBe(true);
    for (const x of [...streams, ...requests]) x.release();
    await Promise.all([...streams, ...requests].map((x) => x.done));
    expect(p.stats).toMatchObject({ busy: 0, streamBusy: 0, waiting: 0 });
  });

  it('refuses beyond the queue and the deadline, counts each reason and logs once per interval', async () => {
    const { pool: p, logs } = pool({ max: 1, streamMax: 1, queueLength: 1, queueWaitMs: 1_000 });
    const busy = hold(p, 'request');
    await vi.advanceTimersByTimeAsync(0);
    const waiting = reasonOf(p.run(async () => undefined, { lane: 'request' }));
    const overflow = await Promise.all([1, 2, 3].map(() => reasonOf(p.run(async () => undefined, { lane: 'request' }))));
    expect(overflow).toEqual(['queue_full', 'queue_full', 'queue_full']);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await waiting).toBe('deadline');
    expect(p.stats.refused).toEqual({ queue_full: 3, deadline: 1, departed: 0, stopping: 0 });
    const lines = () => logs.filter((l) => l.code === 'admission_refused');
    expect(lines()).toHaveLength(1);
    expect(lines()[0]).toMatchObject({ level: 'warn', refused: 1, queue_full: 1 });
    // The rest of the interval is summed into the next line.
    await vi.advanceTimersByTimeAsync(REFUSAL_LOG_INTERVAL_MS);
    expect(lines()).toHaveLength(2);
    expect(lines()[1]).toMatchObject({ refused: 3, queue_full: 2, deadline: 1 });
    await vi.advanceTimersByTimeAsync(REFUSAL_LOG_INTERVAL_MS * 3);
    expect(lines()).toHaveLength(2);
    busy.release();
    await busy.done;
  });

  it('refuses what waits when stopping, and anything that would have to wait after', async () => {
    const { pool: p } = pool({ max: 1, streamMax: 1, queueLength: 4, queueWaitMs: 5_000 });
    const busy = hold(p, 'request');
    await vi.advanceTimersByTimeAsync(0);
    const waiting = reasonOf(p.run(async () => undefined, { lane: 'request' }));
    p.refuseWaiting();
    expect(await waiting).toBe('stopping');
    expect(await reasonOf(p.run(async () => undefined, { lane: 'stream' }))).toBe('stopping');
    busy.release();
    await busy.done;
    // The host's own calls are never refused.
    expect(await reasonOf(p.run(async () => undefined))).toBe('admitted');
  });
});
