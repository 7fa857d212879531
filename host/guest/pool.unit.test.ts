/**
 * The pool's safety net: an instance is retired after `maxRequests` exchanges or once its linear
 * memory passes `maxMemoryBytes`, logged with `guest_instance_retired`, and replaced so that
 * `min` instances stay ready. Fake instances stand in for guests (their memory is set by the test).
 */
import { describe, expect, it } from 'vitest';
import { laneQueues } from '../admission/wait-queue.ts';
import type { HostLogger } from '../log.ts';
import { InstancePool, type GuestInstance } from './pool.ts';

interface Fake extends GuestInstance {
  id: number;
  memoryBytes: number;
}

function setup(options: { min?: number; max?: number; maxRequests?: number; maxMemoryBytes?: number; idleMs?: number; now?: () => number }) {
  const created: Fake[] = [];
  const logs: Array<{ level: string; msg: string; fields?: Record<string, unknown> }> = [];
  const logger: HostLogger = { log: (level, msg, fields) => logs.push({ level, msg, fields }) };
  const pool = new InstancePool(
    async () => {
      const fake: Fake = {
        id: created.length,
        memoryBytes: 10 * 1_048_576,
        handle: async () => undefined,
        stats: () => ({ handles: 0, captured: 0, createdReps: 0, memoryBytes: fake.memoryBytes }),
      };
      created.push(fake);
      return fake;
    },
    {
      min: options.min ?? 1,
      max: options.max ?? 4,
      maxRequests: options.maxRequests,
      maxMemoryBytes: options.maxMemoryBytes,
      idleMs: options.idleMs,
      now: options.now,
      queues: laneQueues(),
    },
    logger,
  );
  const served: number[] = [];
  const request = () => pool.run(async (instance) => void served.push((instance as Fake).id));
  return { pool, created, logs, served, request };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('InstancePool retirement', () => {
  it('retires an instance after maxRequests exchanges and serves the next request with a fresh one', async () => {
    const { pool, logs, served, request } = setup({ maxRequests: 3 });
    await pool.warm();
    for (let i = 0; i < 7; i++) {
      await request();
      await settle();
    }
    expect(served).toEqual([0, 0, 0, 1, 1, 1, 2]);
    const retired = logs.filter((l) => l.fields?.code === 'guest_instance_retired');
    expect(retired).toHaveLength(2);
    expect(retired[0]!.fields).toMatchObject({ reason: 'max_requests', requests: 3, memoryMiB: 10 });
    expect(pool.stats).toMatchObject({ alive: 1, retired: 2 });
    expect(pool.instanceStats()).toHaveLength(1);
  });

  it('retires an instance whose linear memory passed maxMemoryBytes after its exchange', async () => {
    const { pool, created, logs, served, request } = setup({ maxMemoryBytes: 64 * 1_048_576 });
    await pool.warm();
    await request();
    created[0]!.memoryBytes = 65 * 1_048_576;
    await request();
    await settle();
    await request();
    expect(served).toEqual([0, 0, 1]);
    expect(logs.find((l) => l.fields?.code === 'guest_instance_retired')?.fields).toMatchObject({ reason: 'max_memory', requests: 2, memoryMiB: 65 });
  });

  it('never retires with both limits at 0', async () => {
    const { pool, created, served, request } = setup({ maxRequests: 0, maxMemoryBytes: 0 });
    await pool.warm();
    created[0]!.memoryBytes = 4_000 * 1_048_576;
    for (let i = 0; i < 50; i++) await request();
    expect(new Set(served)).toEqual(new Set([0]));
    expect(pool.stats.retired).toBe(0);
  });

  it('hands the replacement to a request that was waiting for an instance', async () => {
    const { pool, served } = setup({ min: 1, max: 1, maxRequests: 1 });
    await pool.warm();
    let release!: () => void;
    const first = pool.run(async (instance) => {
      served.push((instance as Fake).id);
      await new Promise<void>((resolve) => (release = resolve));
    });
    const second = pool.run(async (instance) => void served.push((instance as Fake).id));
    await settle();
    release();
    await Promise.all([first, second]);
    expect(served).toEqual([0, 1]);
    expect(pool.stats).toMatchObject({ alive: 1, waiting: 0 });
  });

  // The clock is the test's: retireIdle() is called by hand, as host/app.ts's timer would.
  it('retires instances beyond min that stayed idle for idleMs, least recently used first', async () => {
    let now = 0;
    const { pool, logs } = setup({ min: 1, max: 4, idleMs: 60_000, now: () => now });
    await pool.warm();
    // Three requests at once: the pool grows to three instances.
    const releases: Array<() => void> = [];
    const ids: number[] = [];
    const runs = [0, 1, 2].map(() =>
      pool.run(async (instance) => {
        ids.push((instance as Fake).id);
        await new Promise<void>((resolve) => releases.push(resolve));
      }),
    );
    await settle();
    expect(pool.stats.alive).toBe(3);
    releases[0]!(); // the first to finish is the least recently used
    await runs[0];
    now = 30_000;
    releases[1]!();
    releases[2]!();
    await Promise.all(runs);
    now = 59_999;
    expect(pool.retireIdle()).toBe(0);
    now = 60_000;
    expect(pool.retireIdle()).toBe(1);
    expect(pool.stats).toMatchObject({ alive: 2, idle: 2, retired: 1 });
    now = 90_000; // both others idle for 60 s now, but min keeps one
    expect(pool.retireIdle()).toBe(1);
    expect(pool.stats).toMatchObject({ alive: 1, idle: 1, retired: 2 });
    now = 1_000_000;
    expect(pool.retireIdle()).toBe(0);
    expect(logs.filter((l) => l.fields?.code === 'guest_instance_retired').map((l) => l.fields?.reason)).toEqual(['idle', 'idle']);
    expect(pool.instanceStats()).toHaveLength(1);
  });

  it('never retires idle instances with idleMs 0, nor one that is busy', async () => {
    let now = 0;
    const { pool } = setup({ min: 0, max: 2, idleMs: 0, now: () => now });
    await pool.run(async () => undefined);
    now = 10_000_000;
    expect(pool.retireIdle()).toBe(0);
    expect(pool.stats.alive).toBe(1);

    const busy = setup({ min: 0, max: 2, idleMs: 1_000, now: () => now });
    let release!: () => void;
    const running = busy.pool.run(() => new Promise<void>((resolve) => (release = resolve)));
    await settle();
    now += 5_000;
    expect(busy.pool.retireIdle()).toBe(0);
    release();
    await running;
    now += 1_000;
    expect(busy.pool.retireIdle()).toBe(1);
    expect(busy.pool.stats.alive).toBe(0);
  });
});

describe('InstancePool counts', () => {
  it('counts instances created, and discarded after a trap', async () => {
    const { pool } = setup({ min: 1 });
    await pool.warm();
    await expect(
      pool.run(async () => {
        throw new Error('trap');
      }),
    ).rejects.toThrow('trap');
    await settle();
    expect(pool.stats).toMatchObject({ created: 2, discarded: 1, retired: 0, alive: 1 });
  });
});
