/** Aggregate loading: snapshot + tail must always equal a full replay of the stream. */
import { describe, expect, it } from 'vitest';
import { createMemoryPlatform } from '../../platform/testing/memory-platform.ts';
import { COUNTER_STREAM_ID, type CounterCommand } from '../domain/counter.ts';
import { testCounterDeps } from '../testing.ts';
import { encodeEvent } from './event-codec.ts';
import { executeCounterCommand } from './execute-command.ts';
import { EMPTY_COUNTER, loadCounter, replayFrom } from './load-counter.ts';
import { COUNTER_VIEWS_COLLECTION, COUNTER_VIEW_DOCUMENT_ID, readSnapshot } from './snapshot.ts';

/** Deterministic pseudo-random numbers (LCG), so a failure is reproducible. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('loadCounter', () => {
  it('loads an empty counter when nothing exists', () => {
    expect(loadCounter(createMemoryPlatform())).toEqual(EMPTY_COUNTER);
  });

  it('snapshot + tail equals a full replay, whatever the snapshot lag', async () => {
    const deps = testCounterDeps({ realtime: { enabled: false } });
    const random = seeded(42);
    for (let i = 0; i < 200; i++) {
      const roll = random();
      const command: CounterCommand = roll < 0.1 ? { type: 'reset' } : { type: roll < 0.6 ? 'increment' : 'decrement', amount: 1 + Math.floor(random() * 50) };
      // Let the projection (and so the snapshot) fall behind now and then.
      if (random() < 0.4) deps.platform.failNext('commit');
      await executeCounterCommand(deps, command);
      deps.platform.respond();
      expect(loadCounter(deps.platform)).toEqual(replayFrom(deps.platform, EMPTY_COUNTER));
    }
    const snapshot = readSnapshot(deps.platform);
    expect(snapshot?.revision).toBeGreaterThan(0);
  });

  it('reads only the tail after the snapshot', async () => {
    const deps = testCounterDeps();
    await executeCounterCommand(deps, { type: 'increment', amount: 5 });
    deps.platform.respond();
    deps.platform.failNext('commit'); // the snapshot stays at revision 1
    await executeCounterCommand(deps, { type: 'increment', amount: 6 });
    deps.platform.respond();
    const reads: (bigint | undefined)[] = [];
    const original = deps.platform.events.readStream.bind(deps.platform.events);
    deps.platform.events.readStream = (streamId, options) => {
      reads.push(options.fromRevision);
      return original(streamId, options);
    };
    expect(loadCounter(deps.platform)).toEqual({ state: { value: 11 }, revision: 2n });
    expect(reads).toEqual([2n]);
  });

  it('pages through long streams', () => {
    const platform = createMemoryPlatform();
    const events = Array.from({ length: 2500 }, () => encodeEvent({ type: 'incremented', amount: 1 }));
    platform.events.append(COUNTER_STREAM_ID, { tag: 'any' }, events);
    expect(loadCounter(platform)).toEqual({ state: { value: 2500 }, revision: 2500n });
    expect(platform.faults.calls('readStream')).toBe(3);
  });

  it('falls back to a full replay when the snapshot is malformed, and says so', () => {
    const platform = createMemoryPlatform();
    platform.events.append(COUNTER_STREAM_ID, { tag: 'any' }, [encodeEvent({ type: 'incremented', amount: 3 })]);
    const body = JSON.stringify({ count: 'nope', revision: 1, last_sequence: 1 });
    platform.projections.commit('test', 0n, 1n, [{ tag: 'put', val: { collection: COUNTER_VIEWS_COLLECTION, id: COUNTER_VIEW_DOCUMENT_ID, body } }]);
    expect(loadCounter(platform)).toEqual({ state: { value: 3 }, revision: 1n });
    expect(platform.logger.codes()).toEqual(['snapshot_invalid']);
  });

  it('surfaces store failures while reading the snapshot', () => {
    const platform = createMemoryPlatform();
    platform.failNext('getDocument');
    expect(() => loadCounter(platform)).toThrow(/injected/);
  });
});
