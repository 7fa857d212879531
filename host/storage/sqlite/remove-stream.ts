/**
 * event-store.remove-stream: checks the expected revision, then deletes the stream's events and
 * adds them to the per-type totals of removed events (app_removed_event_counts), in one IMMEDIATE
 * transaction: the check and the delete see the same stream state (no append lands between), and
 * count-by-type never sees the events gone from both places or neither. AUTOINCREMENT keeps their
 * sequences unused.
 */
import type { DatabaseSync } from 'node:sqlite';
import { revisionMatches } from '../../../src/contract/revision.ts';
import { checkName, StorageFailure } from '../errors.ts';
import type { ExpectedRevision } from '../types.ts';
import { checkExpected } from './append.ts';
import { immediate } from './transaction.ts';

export function createRemoveStream(db: DatabaseSync, streamRevision: (streamId: string) => bigint): (streamId: string, expected: ExpectedRevision) => bigint {
  const tally = db.prepare(
    `INSERT INTO app_removed_event_counts (event_type, count)
       SELECT event_type, COUNT(*) FROM app_events WHERE stream_id = ? GROUP BY event_type
     ON CONFLICT (event_type) DO UPDATE SET count = count + excluded.count`,
  );
  const remove = db.prepare('DELETE FROM app_events WHERE stream_id = ?');
  return function removeStream(streamId, expected) {
    checkName('stream id', streamId);
    checkExpected(expected);
    return immediate(db, () => {
      const actual = streamRevision(streamId);
      if (!revisionMatches(expected, actual)) throw StorageFailure.conflict(streamId, expected, actual);
      tally.run(streamId);
      return BigInt(remove.run(streamId).changes);
    });
  };
}
