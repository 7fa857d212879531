/**
 * event-store.append: check the expected revision and insert the batch in one IMMEDIATE
 * transaction, so the check and the insert see the same stream state. All or nothing.
 */
import type { DatabaseSync } from 'node:sqlite';
import { revisionMatches } from '../../../src/contract/revision.ts';
import { checkName, StorageFailure } from '../errors.ts';
import type { ExpectedRevision, NewEvent, RecordedEvent } from '../types.ts';
import { isUniqueViolation } from './errors.ts';
import { immediate } from './transaction.ts';
import { int, MAX_I64 } from '../sql/values.ts';

/** `fence`, when given, runs first inside the write transaction and throws to refuse the append (leases.ts). */
export type Append = (streamId: string, expected: ExpectedRevision, events: NewEvent[], fence?: () => void) => RecordedEvent[];

export function checkExpected(expected: ExpectedRevision): void {
  if (expected.tag === 'exact' && (typeof expected.val !== 'bigint' || expected.val < 0n)) {
    throw StorageFailure.invalid('exact revision must be a u64');
  }
}

export function createAppend(db: DatabaseSync, streamRevision: (streamId: string) => bigint): Append {
  const insert = db.prepare(
    `INSERT INTO app_events (stream_id, revision, event_type, payload, metadata, recorded_at)
     VALUES (?, ?, ?, ?, ?, ?) RETURNING sequence`,
  );

  return function append(streamId, expected, events, fence) {
    checkName('stream id', streamId);
    checkExpected(expected);
    for (const event of events) checkName('event type', event.eventType);

    if (events.length === 0 && fence === undefined) {
      // Nothing to write: only the expectation is checked (no write lock needed).
      const actual = streamRevision(streamId);
      if (!revisionMatches(expected, actual)) throw StorageFailure.conflict(streamId, expected, actual);
      return [];
    }

    try {
      return immediate(db, () => {
        fence?.();
        const actual = streamRevision(streamId);
        if (!revisionMatches(expected, actual)) throw StorageFailure.conflict(streamId, expected, actual);
        if (actual + BigInt(events.length) > MAX_I64) throw StorageFailure.invalid('stream revision would overflow');
        const recordedAt = BigInt(Date.now());
        return events.map((event, index): RecordedEvent => {
          const revision = actual + BigInt(index + 1);
          const row = insert.get(streamId, revision, event.eventType, event.payload, event.metadata, recordedAt);
          if (row === undefined) throw StorageFailure.internal('insert returned no sequence');
          return {
            sequence: int(row, 'sequence'),
            streamId,
            revision,
            eventType: event.eventType,
            payload: event.payload,
            metadata: event.metadata,
            recordedAt,
          };
        });
      });
    } catch (error) {
      // Unreachable while every writer uses BEGIN IMMEDIATE, but if another writer ever slips a
      // revision in between, the UNIQUE (stream_id, revision) constraint is the last line of
      // defence, and the caller must see a conflict with the revision that won.
      if (isUniqueViolation(error, 'app_events')) {
        throw StorageFailure.conflict(streamId, expected, streamRevision(streamId));
      }
      throw error;
    }
  };
}
