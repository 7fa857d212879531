/** The counter projection: folding, checkpoints, paging, other streams and competing workers. */
import { describe, expect, it } from 'vitest';
import type { NewEvent } from '../../platform/ports.ts';
import { createMemoryPlatform, type MemoryPlatform } from '../../platform/testing/memory-platform.ts';
import { COUNTER_STREAM_ID } from '../domain/counter.ts';
import { encodeEvent } from './event-codec.ts';
import { COUNTER_PROJECTION, runCounterProjection } from './projection.ts';
import { caughtUp, project, storedReadModel } from './read-model.ts';

/** Increments by `amount` recording `value` (the projection takes the count from the newest event). */
const incremented = (amount: number, value = amount): NewEvent => encodeEvent({ type: 'incremented', amount, value });
const other: NewEvent = { eventType: 'user_registered', payload: '{}', metadata: '{}' };

function append(platform: MemoryPlatform, streamId: string, events: NewEvent[]): void {
  platform.events.append(streamId, { tag: 'any' }, events);
}

describe('runCounterProjection', () => {
  it('does nothing on an empty store', () => {
    const platform = createMemoryPlatform();
    expect(runCounterProjection(platform)).toEqual({ checkpoint: 0n, applied: 0, superseded: false });
    expect(platform.faults.calls('commit')).toBe(0);
  });

  it('folds counter events into the document and moves the checkpoint', () => {
    const platform = createMemoryPlatform();
    append(platform, COUNTER_STREAM_ID, [incremented(2), incremented(3, 5)]);
    expect(runCounterProjection(platform)).toEqual({ checkpoint: 2n, applied: 2, superseded: false });
    expect(storedReadModel(platform)).toMatchObject({ count: 5, revision: 2, last_sequence: 2 });
  });

  it('keeps the newest events in the document, newest first, at most 5, with who sent them', () => {
    const platform = createMemoryPlatform();
    append(platform, COUNTER_STREAM_ID, [incremented(1, 1), incremented(1, 2), incremented(1, 3)]);
    runCounterProjection(platform);
    append(platform, COUNTER_STREAM_ID, [incremented(1, 4), incremented(1, 5), encodeEvent({ type: 'reset_performed', previous: 5 }, { userId: 'u-7' })]);
    runCounterProjection(platform);
    const model = storedReadModel(platform)!;
    expect(model.latest_events.map((e) => [e.revision, e.event_type, e.user_id])).toEqual([
      [6, 'reset_performed', 'u-7'],
      [5, 'incremented', undefined],
      [4, 'incremented', undefined],
      [3, 'incremented', undefined],
      [2, 'incremented', undefined],
    ]);
    expect(model.count).toBe(0);
  });

  it('reads a document written before it kept the newest events (version 1) with none', () => {
    const platform = createMemoryPlatform();
    platform.projections.commit(COUNTER_PROJECTION, 0n, 0n, [
      { tag: 'put', val: { collection: 'counter_views', id: 'global', body: '{"count":3,"revision":2,"last_sequence":2,"schema_version":1}' } },
    ]);
    expect(storedReadModel(platform)).toEqual({ count: 3, revision: 2, last_sequence: 2, latest_events: [] });
  });

  it('skips other streams but still advances past them', () => {
    const platform = createMemoryPlatform();
    append(platform, COUNTER_STREAM_ID, [incremented(2)]);
    append(platform, 'user-1', [other, other]);
    runCounterProjection(platform);
    expect(platform.projections.checkpoint(COUNTER_PROJECTION)).toBe(3n);
    expect(storedReadModel(platform)).toMatchObject({ count: 2, revision: 1, last_sequence: 1 });
  });

  it('moves the checkpoint without writing the document when a page has no counter events', () => {
    const platform = createMemoryPlatform();
    append(platform, 'user-1', [other]);
    runCounterProjection(platform);
    expect(platform.projections.checkpoint(COUNTER_PROJECTION)).toBe(1n);
    expect(storedReadModel(platform)).toBeUndefined();
  });

  it('is idempotent', () => {
    const platform = createMemoryPlatform();
    append(platform, COUNTER_STREAM_ID, [incremented(2)]);
    runCounterProjection(platform);
    expect(runCounterProjection(platform).applied).toBe(0);
    expect(storedReadModel(platform)?.count).toBe(2);
  });

  it('pages through large backlogs, committing each page of 500', () => {
    const platform = createMemoryPlatform();
    append(
      platform,
      COUNTER_STREAM_ID,
      Array.from({ length: 1200 }, (_, i) => incremented(1, i + 1)),
    );
    expect(runCounterProjection(platform)).toEqual({ checkpoint: 1200n, applied: 1200, superseded: false });
    expect(platform.faults.calls('commit')).toBe(3);
    expect(storedReadModel(platform)).toMatchObject({ count: 1200, revision: 1200, last_sequence: 1200 });
  });

  it('stops quietly when another worker commits first', () => {
    const platform = createMemoryPlatform();
    append(platform, COUNTER_STREAM_ID, [incremented(2)]);
    platform.faults.beforeNext('commit', () => runCounterProjection(platform));
    expect(runCounterProjection(platform)).toMatchObject({ superseded: true });
    expect(storedReadModel(platform)).toMatchObject({ count: 2, revision: 1, last_sequence: 1 });
  });

  it('tolerates a document that moved ahead between reading the checkpoint and the document', () => {
    const platform = createMemoryPlatform();
    append(platform, COUNTER_STREAM_ID, [incremented(2), incremented(5, 7)]);
    platform.faults.beforeNext('getDocument', () => runCounterProjection(platform));
    expect(runCounterProjection(platform)).toMatchObject({ superseded: true });
    expect(storedReadModel(platform)).toMatchObject({ count: 7, revision: 2, last_sequence: 2 });
  });

  it('throws on a stored event it cannot decode', () => {
    const platform = createMemoryPlatform();
    append(platform, COUNTER_STREAM_ID, [{ eventType: 'incremented', payload: '{"amount":"x"}', metadata: '{}' }]);
    expect(() => runCounterProjection(platform)).toThrow();
    expect(platform.projections.checkpoint(COUNTER_PROJECTION)).toBe(0n);
  });
});

describe('caughtUp (the view folding the events after the document)', () => {
  it('gives what folding the events one by one gives, and refuses a gap', () => {
    const platform = createMemoryPlatform();
    append(platform, COUNTER_STREAM_ID, [incremented(1, 1), incremented(2, 3), incremented(3, 6)]);
    runCounterProjection(platform);
    append(platform, COUNTER_STREAM_ID, [incremented(4, 10), encodeEvent({ type: 'decremented', amount: 1, value: 9 }, { userId: 'u-1' }), incremented(1, 10)]);
    const stored = storedReadModel(platform)!;
    const after = platform.events.readStream(COUNTER_STREAM_ID, { direction: 'forward', fromRevision: 4n, limit: 10 });
    expect(caughtUp(stored, after)).toEqual(after.reduce(project, stored));
    expect(caughtUp(stored, [])).toBe(stored);
    expect(() => caughtUp(stored, after.slice(1))).toThrow(expect.objectContaining({ code: 'internal' }));
  });
});
