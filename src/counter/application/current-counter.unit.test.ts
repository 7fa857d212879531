/** A command loading the counter from the newest event (which records the value), through its turn's lease. */
import { describe, expect, it } from 'vitest';
import { PENDING_SEQUENCE, type RecordedEvent, type StreamLeases } from '../../platform/ports.ts';
import { COUNTER_STREAM_ID } from '../domain/counter.ts';
import { testCounterDeps, type TestCounterDeps } from '../testing.ts';
import { executeCounterCommand } from './execute-command.ts';
import { EMPTY_READ_MODEL, project } from './read-model.ts';
import { LATEST_EVENTS_LIMIT, toEventLog } from './view.ts';

const inc = (amount: number) => ({ type: 'increment' as const, amount });

/** The view the projection's fold over the whole stream gives: the reference every load must agree with. */
function replayedView(deps: TestCounterDeps) {
  const all = deps.platform.events.readStream(COUNTER_STREAM_ID, { direction: 'forward', limit: 1000 });
  const newest = deps.platform.events.readStream(COUNTER_STREAM_ID, { direction: 'backward', limit: LATEST_EVENTS_LIMIT });
  return { count: all.reduce(project, EMPTY_READ_MODEL).count, latest_events: newest.map(toEventLog) };
}

describe("counterOf (a command's load)", () => {
  describe('a turn handed on while the append before it was still being committed', () => {
    /** Leases as a host hands them on: the newest event is read pending; `answer` shapes what append-and-end returns. */
    function handedOnLeases(deps: TestCounterDeps, answer: (own: RecordedEvent[]) => RecordedEvent[]): StreamLeases {
      const plain = deps.platform.leases;
      return {
        acquire(streamId, waitMs, newest) {
          const lease = plain.acquire(streamId, waitMs, newest)!;
          const pending = (events: readonly RecordedEvent[]) => events.map((e, i) => (i === 0 ? { ...e, sequence: PENDING_SEQUENCE, recordedAt: 0n } : e));
          return {
            ...lease,
            newest: pending(lease.newest),
            readNewest: (limit) => pending(lease.readNewest(limit)),
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
      expect(deps.platform.faults.calls('readStream') - reads).toBe(1); // the events the turn came with only
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
