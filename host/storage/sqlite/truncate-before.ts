/**
 * event-store.truncate-before: deletes a stream's events below a revision, never its newest, and
 * adds them to the per-type totals of removed events (app_removed_event_counts) in one IMMEDIATE
 * transaction, as remove-stream.ts does. The newest event keeps MAX(revision), so the stream's
 * revision is unchanged; AUTOINCREMENT keeps the removed sequences unused.
 */
import type { DatabaseSync } from 'node:sqlite';
import { checkName, StorageFailure } from '../errors.ts';
import { immediate } from './transaction.ts';
import { clampU64 } from '../sql/values.ts';

export function createTruncateBefore(db: DatabaseSync): (streamId: string, revision: bigint) => bigint {
  // `?2` once for the bound and the stream's newest revision in one place: below both.
  const below = `stream_id = ?1 AND revision < ?2 AND revision < (SELECT MAX(revision) FROM app_events WHERE stream_id = ?1)`;
  const tally = db.prepare(
    `INSERT INTO app_removed_event_counts (event_type, count)
       SELECT event_type, COUNT(*) FROM app_events WHERE ${below} GROUP BY event_type
     ON CONFLICT (event_type) DO UPDATE SET count = count + excluded.count`,
  );
  const remove = db.prepare(`DELETE FROM app_events WHERE ${below}`);
  return function truncateBefore(streamId, revision) {
    checkName('stream id', streamId);
    if (typeof revision !== 'bigint' || revision < 0n) throw StorageFailure.invalid('revision must be a u64');
    // A bound past i64 means "below the newest" all the same.
    const bound = clampU64(revision);
    return immediate(db, () => {
      tally.run(streamId, bound);
      return BigInt(remove.run(streamId, bound).changes);
    });
  };
}
