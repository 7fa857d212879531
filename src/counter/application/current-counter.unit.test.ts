/** Loading the counter from the newest event, which records the value. */
import { describe, expect, it } from 'vitest';
import { PENDING_SEQUENCE, type RecordedEvent, type StreamLeases } from '../../platform/ports.ts';
import { COUNTER_STREAM_ID } from '../domain/counter.ts';
import { testCounterDeps, type TestCounterDeps } from '../testing.ts';
import { executeCounterCommand } from './execute-command.ts';
import { getCounterView } from './get-view.ts';
import { EMPTY_READ_MODEL, project } from './read-model.ts';
import { LATEST_EVENTS_LIMIT, toEventLog } from './view.ts';

const inc = (amount: number) => ({ type: 'increment' as const, amount });

/** Storage calls `fn` makes, by operation. */
function callsOf(deps: TestCounterDeps, fn: () => unknown): { readStream: number; getDocument: number } {
  const before = { readStream: deps.platform.faults.calls('readStream'), getDocument: deps.platform.faults.calls('getDocument') };
  fn();
  return { readStream: deps.platform.faults.calls('readStream') - before.readStream, getDocument: deps.platform.faults.calls('getDocument') - before.getDocument };
}

/** The view the projection's fold over the whole stream gives: the reference every load must agree with. */
function replayedView(deps: TestCounterDeps) {
  const all = deps.platform.events.readStream(COUNTER_STREAM_ID, { direction: 'forward', limit: 1000 });
  const newest = deps.platform.events.readStream(COUNTER_STREAM_ID, { direction: 'backward', limit: LATEST_EVENTS_LIMIT });
  return { count: all.reduce(project, EMPTY_READ_MODEL).count, latest_events: newest.map(toEventLog) };
}

describe('currentCounter', () => {
  it('answers a view with one storage read and no document, however many events came before', async () => {
    const deps = testCounterDeps({ projectionBatch: 1_000n });
    for (let i = 0; i < 300; i++) await executeCounterCommand(deps, inc(1));
    let view: ReturnType<typeof getCounterView> | undefined;
    expect(callsOf(deps, () => (view = getCounterView(deps)))).toEqual({ readStream: 1, getDocument: 0 });
    expect(view).toMatchObject(replayedView(deps));
    expect(view?.count).toBe(300);
  });

  it('reports zero for an empty store', () => {
    expect(getCounterView(testCounterDeps())).toMatchObject({ count: 0, latest_events: [], last_sequence: 0 });
  });

  it('refuses a newest event whose value is not an i32 as an internal error', () => {
    const deps = testCounterDeps();
    deps.platform.events.append(COUNTER_STREAM_ID, { tag: 'any' }, [{ eventType: 'incremented', payload: '{"amount":1,"value":"x"}', metadata: '{}' }]);
    expect(() => getCounterView(deps)).toThrow(expect.objectContaining({ code: 'internal' }));
  });

  it('agrees with a full replay after any mix of commands', async () => {
    const deps = testCounterDeps({ projectionBatch: 4n });
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let i = 0; i < 120; i++) {
      const pick = next() % 9;
      if (pick === 0) await executeCounterCommand(deps, { type: 'reset' });
      else if (pick < 4) await executeCounterCommand(deps, inc(1 + (next() % 5)));
      else if (pick < 7) await executeCounterCommand(deps, { type: 'decrement', amount: 1 + (next() % 3) });
      else expect(getCounterView(deps)).toMatchObject(replayedView(deps));
    }
    expect(getCounterView(deps)).toMatchObject(replayedView(deps));
  });

  describe('a turn handed on while the append before it was still being committed', () => {
    /** Leases as a host hands them on: the newest event is read pending; `answer` shapes what append-and-end returns. */
    function handedOnLeases(deps: TestCounterDeps, answer: (own: RecordedEvent[]) => RecordedEvent[]): StreamLeases {
      const plain = deps.platform.leases;
      return {
        acquire(streamId, waitMs) {
          const lease = plain.acquire(streamId, waitMs)!;
          return {
            ...lease,
            readNewest: (limit) => lease.readNewest(limit).map((e, i) => (i === 0 ? { ...e, sequence: PENDING_SEQUENCE, recordedAt: 0n } : e)),
            appendAndEnd: (expected, list, newest) => answer(lease.appendAndEnd(expected, list, newest)),
          };
        },
      };
    }

    it('decides on the pending event and shows it as committed from the lease answer, with no read', async () => {
      const deps = testCounterDeps({ projectionBatch: 1_000n });
      await executeCounterCommand(deps, inc(2));
      const committedBefore = deps.platform.events.readStream(COUNTER_STREAM_ID, { direction: 'backward', limit: 1 });
      deps.platform.leases = handedOnLeases(deps, (own) => [...own, ...committedBefore]);
      const reads = deps.platform.faults.calls('readStream');
      const view = await executeCounterCommand(deps, inc(3));
      expect(deps.platform.faults.calls('readStream') - reads).toBe(1); // readNewest only
      expect(view.count).toBe(5);
      expect(view.latest_events.map((e) => e.sequence)).toEqual([2, 1]);
      expect(view).toMatchObject(replayedView(deps));
    });

    it('reads the newest events again when the answer does not carry the event it read pending', async () => {
      const deps = testCounterDeps({ projectionBatch: 1_000n });
      await executeCounterCommand(deps, inc(2));
      deps.platform.leases = handedOnLeases(deps, (own) => own);
      const view = await executeCounterCommand(deps, inc(3));
      expect(view.latest_events.every((e) => e.sequence > 0)).toBe(true);
      expect(view).toMatchObject(replayedView(deps));
    });
  });
});
