/**
 * The pool's safety net: an instance is retired after `maxRequests` exchanges or once its linear
 * memory passes `maxMemoryBytes`, logged with `guest_instance_retired`, and replaced so that
 * `min` instances stay ready. Fake instances stand in for guests (their memory is set by the test).
 */
import { describe, expect, it } from 'vitest';
import type { HostLogger } from './log.ts';
import { InstancePool, type GuestInstance } from './pool.ts';

interface Fake extends GuestInstance {
  id: number;
  memoryBytes: number;
}

function setup(options: { min?: number; max?: number; maxRequests?: number; maxMemoryBytes?: number }) {
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
    { min: options.min ?? 1, max: options.max ?? 4, maxRequests: options.maxRequests, maxMemoryBytes: options.maxMemoryBytes },
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
