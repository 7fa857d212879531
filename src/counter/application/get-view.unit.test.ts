/**
 * The counter query: the projection's document caught up with the stream, agreeing with a full
 * replay whatever the projection's lag; what it costs in storage calls; when it asks for a
 * projection run.
 */
import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.ts';
import { COUNTER_STREAM_ID } from '../domain/counter.ts';
import { testCounterDeps, type TestCounterDeps } from '../testing.ts';
import { executeCounterCommand } from './execute-command.ts';
import { CATCH_UP_LIMIT, getCounterView, readCounterView, STALE_TAIL_MS } from './get-view.ts';
import { COUNTER_PROJECTION } from './projection.ts';
import { EMPTY_READ_MODEL, project } from './read-model.ts';
import { LATEST_EVENTS_LIMIT, toEventLog } from './view.ts';

const inc = (amount: number) => ({ type: 'increment' as const, amount });

/** Storage calls `fn` makes, by operation. */
function callsOf(deps: TestCounterDeps, fn: () => unknown): { readStream: number; getDocument: number } {
  const before = { readStream: deps.platform.faults.calls('readStream'), getDocument: deps.platform.faults.calls('getDocument') };
  fn();
  return { readStream: deps.platform.faults.calls('readStream') - before.readStream, getDocument: deps.platform.faults.calls('getDocument') - before.getDocument };
}

/** The view a fold over the whole stream gives: the reference every read must agree with. */
function replayedView(deps: TestCounterDeps) {
  const all = deps.platform.events.readStream(COUNTER_STREAM_ID, { direction: 'forward', limit: 1000 });
  const newest = deps.platform.events.readStream(COUNTER_STREAM_ID, { direction: 'backward', limit: LATEST_EVENTS_LIMIT });
  return { count: all.reduce(project, EMPTY_READ_MODEL).count, latest_events: newest.map(toEventLog), last_sequence: Number(newest[0]?.sequence ?? 0n) };
}

describe('getCounterView', () => {
  it('is empty before any command', () => {
    expect(getCounterView(testCounterDeps())).toEqual({ count: 0, latest_events: [], last_sequence: 0, realtime_enabled: true });
  });

  it('matches the view the last command returned', async () => {
    const deps = testCounterDeps();
    await executeCounterCommand(deps, inc(4));
    const last = await executeCounterCommand(deps, { type: 'decrement', amount: 1 });
    expect(getCounterView(deps)).toEqual(last);
  });

  it('reads the document and one read of the events after it; with the projection current that read is empty', async () => {
    const deps = testCounterDeps();
    for (let i = 0; i < 40; i++) await executeCounterCommand(deps, inc(1));
    deps.platform.respond();
    const expected = replayedView(deps);
    let view: ReturnType<typeof getCounterView> | undefined;
    expect(callsOf(deps, () => (view = getCounterView(deps)))).toEqual({ readStream: 1, getDocument: 1 });
    expect(view).toMatchObject(expected);
  });

  it('sees every command answered before it, however far behind the projection is (read your writes)', async () => {
    const deps = testCounterDeps({ projectionBatch: 1_000n });
    for (let i = 0; i < 3; i++) await executeCounterCommand(deps, inc(2));
    deps.platform.respond(); // nothing queued: the batch is not reached
    expect(getCounterView(deps)).toMatchObject({ ...replayedView(deps), count: 6 });
    for (let i = 0; i < CATCH_UP_LIMIT + 10; i++) await executeCounterCommand(deps, inc(1));
    // Beyond one catch-up read: the stream's newest events are the view.
    const expected = { ...replayedView(deps), count: 6 + CATCH_UP_LIMIT + 10 };
    let view: ReturnType<typeof getCounterView> | undefined;
    expect(callsOf(deps, () => (view = getCounterView(deps)))).toEqual({ readStream: 2, getDocument: 1 });
    expect(view).toMatchObject(expected);
  });

  it('asks for a projection run after its response when the projection is a read behind, or its oldest unread event waited', async () => {
    const deps = testCounterDeps({ projectionBatch: 1_000n });
    await executeCounterCommand(deps, inc(1));
    getCounterView(deps);
    expect(deps.platform.deferred.pending).toBe(0); // a fresh tail: the commands' batch will take it
    deps.platform.clock.advance(STALE_TAIL_MS + 1);
    getCounterView(deps);
    expect(deps.platform.deferred.pending).toBe(1);
    deps.platform.respond();
    expect(deps.platform.projections.checkpoint(COUNTER_PROJECTION)).toBe(1n);
    const expected = replayedView(deps);
    let view: ReturnType<typeof getCounterView> | undefined;
    expect(callsOf(deps, () => (view = getCounterView(deps)))).toEqual({ readStream: 1, getDocument: 1 });
    expect(view).toMatchObject(expected);
    for (let i = 0; i < CATCH_UP_LIMIT; i++) await executeCounterCommand(deps, inc(1));
    getCounterView(deps);
    expect(deps.platform.deferred.pending).toBe(1);
  });

  it('agrees with a full replay after any mix of commands and projection runs', async () => {
    const deps = testCounterDeps({ projectionBatch: 4n });
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let i = 0; i < 160; i++) {
      const pick = next() % 11;
      if (pick === 0) await executeCounterCommand(deps, { type: 'reset' });
      else if (pick < 4) await executeCounterCommand(deps, inc(1 + (next() % 5)));
      else if (pick < 7) await executeCounterCommand(deps, { type: 'decrement', amount: 1 + (next() % 3) });
      else if (pick < 9) deps.platform.respond();
      else expect(getCounterView(deps)).toMatchObject(replayedView(deps));
    }
    expect(getCounterView(deps)).toMatchObject(replayedView(deps));
  });

  it('names the newest event it includes as its source (what the response cache validates)', async () => {
    const deps = testCounterDeps();
    await executeCounterCommand(deps, inc(1));
    deps.platform.respond();
    await executeCounterCommand(deps, inc(1));
    const [head] = deps.platform.events.readStream(COUNTER_STREAM_ID, { direction: 'backward', limit: 1 });
    expect(readCounterView(deps).source).toEqual({ streamId: COUNTER_STREAM_ID, revision: head!.revision, sequence: head!.sequence, recordedAt: head!.recordedAt });
  });

  it('refuses a newest event whose value is not an i32 as an internal error', () => {
    const deps = testCounterDeps();
    deps.platform.events.append(COUNTER_STREAM_ID, { tag: 'any' }, [{ eventType: 'incremented', payload: '{"amount":1,"value":"x"}', metadata: '{}' }]);
    expect(() => getCounterView(deps)).toThrow(expect.objectContaining({ code: 'internal' }));
  });

  it('turns store failures into a store AppError', () => {
    const deps = testCounterDeps();
    for (const operation of ['readStream', 'getDocument'] as const) {
      deps.platform.failNext(operation);
      let caught: unknown;
      try {
        getCounterView(deps);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(AppError);
      expect((caught as AppError).code).toBe('store');
    }
  });
});
