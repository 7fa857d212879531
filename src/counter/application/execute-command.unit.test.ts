/** executeCounterCommand over the in-memory platform: effects, view, retries, best-effort steps. */
import { describe, expect, it } from 'vitest';
import { AppError, StoreError } from '../../errors.ts';
import { COUNTER_STREAM_ID, type CounterCommand } from '../domain/counter.ts';
import { TEST_CHANNEL, testCounterDeps, type TestCounterDeps } from '../testing.ts';
import { encodeEvent } from './event-codec.ts';
import { announcedView } from './announcement.ts';
import { executeCounterCommand, NO_TURN_MESSAGE, PROJECTION_BATCH, TURN_WAIT_MS } from './execute-command.ts';
import { getCounterView } from './get-view.ts';
import { COUNTER_PROJECTION } from './projection.ts';
import { storedReadModel } from './read-model.ts';

const inc = (amount: number): CounterCommand => ({ type: 'increment', amount });
const dec = (amount: number): CounterCommand => ({ type: 'decrement', amount });
const reset: CounterCommand = { type: 'reset' };

async function run(deps: TestCounterDeps, ...commands: CounterCommand[]) {
  let view;
  for (const command of commands) view = await executeCounterCommand(deps, command);
  return view!;
}

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('executeCounterCommand', () => {
  it('applies increment, decrement and reset', async () => {
    const deps = testCounterDeps();
    expect((await run(deps, inc(5))).count).toBe(5);
    expect((await run(deps, dec(7))).count).toBe(-2);
    expect((await run(deps, reset)).count).toBe(0);
    expect((await run(deps, inc(1), inc(2))).count).toBe(3);
  });

  it('stores the documented event types and payloads', async () => {
    const deps = testCounterDeps();
    await run(deps, inc(4), dec(1), reset);
    const stored = deps.platform.events.readStream(COUNTER_STREAM_ID, { direction: 'forward', limit: 10 });
    expect(stored.map((e) => [e.revision, e.eventType, e.payload])).toEqual([
      [1n, 'incremented', '{"amount":4,"value":4}'],
      [2n, 'decremented', '{"amount":1,"value":3}'],
      [3n, 'reset_performed', '{"previous":3}'],
    ]);
  });

  it('returns the view: count, 5 newest events newest first, last sequence, realtime flag', async () => {
    const deps = testCounterDeps({ realtime: { enabled: false } });
    // Another stream shares the global sequence, so sequences and revisions differ.
    deps.platform.events.append('user-1', { tag: 'any' }, [{ eventType: 'user_registered', payload: '{}', metadata: '{}' }]);
    const view = await run(deps, inc(1), inc(2), inc(3), dec(1), inc(5), inc(6));
    expect(Object.keys(view).sort()).toEqual(['count', 'last_sequence', 'latest_events', 'realtime_enabled']);
    expect(view.count).toBe(16);
    expect(view.realtime_enabled).toBe(false);
    expect(view.last_sequence).toBe(7);
    expect(view.latest_events.map((e) => e.revision)).toEqual([6, 5, 4, 3, 2]);
    expect(view.latest_events.map((e) => e.sequence)).toEqual([7, 6, 5, 4, 3]);
    expect(view.latest_events[0]).toEqual({
      sequence: 7,
      event_type: 'incremented',
      revision: 6,
      payload: '{"amount":6,"value":16}',
      recorded_at: '2025-01-01T00:00:00.000Z',
    });
  });

  it('rejects invalid commands without writing or retrying', async () => {
    const deps = testCounterDeps();
    const error = await rejection(executeCounterCommand(deps, inc(0)));
    expect([error.code, error.message]).toEqual(['validation', 'amount must be positive']);
    expect(deps.platform.events.headSequence()).toBe(0n);
    expect(deps.platform.sleeps).toEqual([]);
  });

  it('rejects a result outside i32 as a domain error', async () => {
    const deps = testCounterDeps();
    await run(deps, inc(2_147_483_647));
    expect((await rejection(executeCounterCommand(deps, inc(1)))).code).toBe('domain');
  });

  it('retries after losing a concurrency race and includes the competing write', async () => {
    const deps = testCounterDeps();
    await run(deps, inc(1));
    // A competing writer appends just before our append: our expected revision is now stale.
    deps.platform.faults.beforeNext('append', () => {
      deps.platform.events.append(COUNTER_STREAM_ID, { tag: 'any' }, [encodeEvent({ type: 'incremented', amount: 10, value: 11 })]);
    });
    const view = await executeCounterCommand(deps, inc(100));
    expect(view.count).toBe(111);
    expect(deps.platform.sleeps).toHaveLength(1);
    expect(view.latest_events.map((e) => e.payload)).toEqual(['{"amount":100,"value":111}', '{"amount":10,"value":11}', '{"amount":1,"value":1}']);
  });

  it('retries when two writers race to create the stream (no-stream expectation)', async () => {
    const deps = testCounterDeps();
    deps.platform.faults.beforeNext('append', () => {
      deps.platform.events.append(COUNTER_STREAM_ID, { tag: 'no-stream' }, [encodeEvent({ type: 'incremented', amount: 2, value: 2 })]);
    });
    expect((await executeCounterCommand(deps, inc(3))).count).toBe(5);
  });

  it('gives up with concurrency after the attempt budget, backing off with growing ceilings', async () => {
    const deps = testCounterDeps({ retry: { random: () => 1 } });
    deps.platform.faults.failAlways('append', new StoreError('conflict', 'revision conflict'));
    const error = await rejection(executeCounterCommand(deps, inc(1)));
    expect(error.code).toBe('concurrency');
    expect(error.message).not.toContain('revision conflict');
    expect(deps.platform.faults.calls('append')).toBe(25);
    expect(deps.platform.sleeps).toHaveLength(24);
    expect(deps.platform.sleeps.slice(0, 8)).toEqual([2, 4, 8, 16, 32, 64, 100, 100]);
  });

  it('maps other store failures to store, without retrying', async () => {
    const deps = testCounterDeps();
    deps.platform.failNext('append');
    const error = await rejection(executeCounterCommand(deps, inc(1)));
    expect([error.code, error.message]).toEqual(['store', 'storage is unavailable, try again later']);
    expect(deps.platform.faults.calls('append')).toBe(1);
  });

  it('builds the view from the commit itself: no read after the append can fail a committed command', async () => {
    const deps = testCounterDeps();
    await run(deps, inc(1));
    const readsBefore = deps.platform.faults.calls('readStream');
    const view = await run(deps, inc(2));
    // one read to load the current state (from the instance memory check), none after the append
    expect(deps.platform.faults.calls('readStream') - readsBefore).toBe(1);
    expect(view).toEqual(getCounterView(deps));
  });

  it('announces the commit on the realtime channel: the view it stands for is the answer', async () => {
    const deps = testCounterDeps();
    const subscription = deps.platform.pubsub.subscribe(TEST_CHANNEL);
    await run(deps, inc(1));
    subscription.next(0);
    const view = await run(deps, inc(2));
    expect(announcedView(subscription.next(0) ?? '', true)).toEqual(view);
    expect(subscription.next(0)).toBeUndefined();
  });

  it('does not publish when realtime is disabled', async () => {
    const deps = testCounterDeps({ realtime: { enabled: false } });
    await run(deps, inc(2));
    expect(deps.platform.pubsub.published).toEqual([]);
    expect(deps.platform.faults.calls('publish')).toBe(0);
  });

  it('logs a publish failure and still succeeds', async () => {
    const deps = testCounterDeps();
    deps.platform.failNext('publish');
    const view = await executeCounterCommand(deps, inc(3));
    expect(view.count).toBe(3);
    const [entry] = deps.platform.logger.withCode('realtime_publish_failed');
    expect(entry?.level).toBe('warn');
    expect(getCounterView(deps).count).toBe(3);
  });

  it('advances the projection after each command, once its response is sent', async () => {
    const deps = testCounterDeps();
    await run(deps, inc(3), dec(1));
    // The answers did not wait for it: nothing ran before the response, and one run was queued
    // for both commands (the run catches up on every event; tasks are keyed).
    expect(deps.platform.projections.checkpoint(COUNTER_PROJECTION)).toBe(0n);
    expect(deps.platform.deferred.pending).toBe(1);
    deps.platform.respond();
    expect(deps.platform.projections.checkpoint(COUNTER_PROJECTION)).toBe(2n);
    expect(storedReadModel(deps.platform)).toMatchObject({ count: 2, revision: 2, last_sequence: 2 });
  });

  it('by default advances the projection once per PROJECTION_BATCH events, not per command', async () => {
    const deps = { ...testCounterDeps(), projectionBatch: undefined };
    const commits = () => deps.platform.faults.calls('commit');
    for (let i = 1n; i < PROJECTION_BATCH; i++) await executeCounterCommand(deps, inc(1));
    deps.platform.respond();
    expect(commits()).toBe(0);
    await executeCounterCommand(deps, inc(1));
    expect(commits()).toBe(0); // after the response
    deps.platform.respond();
    expect(commits()).toBe(1);
    expect(storedReadModel(deps.platform)?.revision).toBe(Number(PROJECTION_BATCH));
  });

  it('takes the turn on the counter stream around load, decide and append, and releases it', async () => {
    const deps = testCounterDeps();
    const seen: string[] = [];
    const inner = deps.platform.leases;
    deps.platform.leases = {
      acquire: (streamId, waitMs, newest) => {
        seen.push(`acquire ${streamId} ${waitMs}`);
        const lease = inner.acquire(streamId, waitMs, newest)!;
        return { ...lease, release: () => seen.push('release') };
      },
    };
    await run(deps, inc(1));
    expect(seen).toEqual([`acquire ${COUNTER_STREAM_ID} ${TURN_WAIT_MS}`, 'release']);
  });

  it('answers concurrency (409) when the turn does not come within the wait, writing nothing', async () => {
    const deps = testCounterDeps();
    deps.platform.leases = { acquire: () => undefined };
    await expect(executeCounterCommand(deps, inc(1))).rejects.toMatchObject({ code: 'concurrency', message: NO_TURN_MESSAGE });
    expect(deps.platform.events.streamRevision(COUNTER_STREAM_ID)).toBe(0n);
  });

  it('logs a projection failure and still succeeds; the next command catches up', async () => {
    const deps = testCounterDeps();
    deps.platform.failNext('commit');
    expect((await executeCounterCommand(deps, inc(3))).count).toBe(3);
    deps.platform.respond();
    expect(deps.platform.logger.withCode('projection_failed')).toHaveLength(1);
    expect(storedReadModel(deps.platform)).toBeUndefined();
    expect((await executeCounterCommand(deps, inc(4))).count).toBe(7);
    deps.platform.respond();
    expect(storedReadModel(deps.platform)).toMatchObject({ count: 7, revision: 2, last_sequence: 2 });
  });
});
