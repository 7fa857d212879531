/** The per-instance counter memory: always checked against the store, never serving a stale state. */
import { describe, expect, it } from 'vitest';
import { createMemoryPlatform } from '../../platform/testing/memory-platform.ts';
import { testCounterDeps, type TestCounterDeps } from '../testing.ts';
import { CATCH_UP_LIMIT, CounterMemory } from './current-counter.ts';
import { executeCounterCommand } from './execute-command.ts';
import { getCounterView } from './get-view.ts';

/** A second guest instance: same store, its own memory. */
function otherInstance(deps: TestCounterDeps): TestCounterDeps {
  return { ...deps, memory: new CounterMemory() };
}

const inc = (amount: number) => ({ type: 'increment' as const, amount });

describe('currentCounter with an instance memory', () => {
  it('answers a repeated view with one storage read', async () => {
    const deps = testCounterDeps();
    await executeCounterCommand(deps, inc(3));
    getCounterView(deps);
    const before = deps.platform.faults.calls('readStream');
    const view = getCounterView(deps);
    expect(deps.platform.faults.calls('readStream') - before).toBe(1);
    expect(view.count).toBe(3);
  });

  it('advances over commands another instance committed', async () => {
    const a = testCounterDeps();
    const b = otherInstance(a);
    await executeCounterCommand(a, inc(1));
    expect(getCounterView(b).count).toBe(1);
    await executeCounterCommand(a, inc(2));
    await executeCounterCommand(a, { type: 'decrement', amount: 1 });
    expect(getCounterView(b)).toEqual(getCounterView(a));
    expect(getCounterView(b).count).toBe(2);
  });

  it('catches up over more events than one page shows with one more read, not a full load', async () => {
    const a = testCounterDeps();
    const b = otherInstance(a);
    await executeCounterCommand(a, inc(1));
    expect(getCounterView(b).count).toBe(1);
    for (let i = 0; i < 12; i++) await executeCounterCommand(a, inc(1));
    const reads = a.platform.faults.calls('readStream');
    const snapshots = a.platform.faults.calls('getDocument');
    const view = getCounterView(b);
    expect(a.platform.faults.calls('readStream') - reads).toBe(2);
    expect(a.platform.faults.calls('getDocument') - snapshots).toBe(0);
    expect(view).toEqual(getCounterView({ ...a, memory: undefined }));
    expect(view.count).toBe(13);
  });

  it('falls back to the full load when more than CATCH_UP_LIMIT events arrived', async () => {
    const a = testCounterDeps();
    const b = otherInstance(a);
    await executeCounterCommand(a, inc(1));
    expect(getCounterView(b).count).toBe(1);
    for (let i = 0n; i <= CATCH_UP_LIMIT; i++) await executeCounterCommand(a, inc(1));
    const snapshots = a.platform.faults.calls('getDocument');
    const view = getCounterView(b);
    expect(a.platform.faults.calls('getDocument') - snapshots).toBe(1);
    expect(view).toEqual(getCounterView({ ...a, memory: undefined }));
    expect(view.count).toBe(Number(CATCH_UP_LIMIT) + 2);
  });

  it('notices a store that was wiped and refilled to the same revision', async () => {
    const deps = testCounterDeps();
    await executeCounterCommand(deps, inc(5));
    await executeCounterCommand(deps, inc(5));
    expect(getCounterView(deps).count).toBe(10);
    // Same instance memory, a new store holding two different events at revisions 1 and 2.
    const refilled = { ...deps, platform: createMemoryPlatform() };
    await executeCounterCommand({ ...refilled, memory: new CounterMemory() }, inc(1));
    await executeCounterCommand({ ...refilled, memory: new CounterMemory() }, inc(1));
    expect(getCounterView(refilled).count).toBe(2);
  });

  it('reports zero after the store was emptied', async () => {
    const deps = testCounterDeps();
    await executeCounterCommand(deps, inc(4));
    expect(getCounterView({ ...deps, platform: createMemoryPlatform() })).toMatchObject({ count: 0, latest_events: [], last_sequence: 0 });
  });

  it('agrees with a memory-less read after any interleaving of three instances', async () => {
    const a = testCounterDeps();
    const instances = [a, otherInstance(a), otherInstance(a)];
    const plain = { ...a, memory: undefined };
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let i = 0; i < 60; i++) {
      const deps = instances[next() % 3]!;
      const pick = next() % 7;
      if (pick === 0) await executeCounterCommand(deps, { type: 'reset' });
      else if (pick < 4) await executeCounterCommand(deps, inc(1 + (next() % 5)));
      else if (pick < 6) await executeCounterCommand(deps, { type: 'decrement', amount: 1 + (next() % 3) });
      else expect(getCounterView(deps)).toEqual(getCounterView(plain));
    }
    for (const deps of instances) expect(getCounterView(deps)).toEqual(getCounterView(plain));
  });
});
