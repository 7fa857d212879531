/**
 * event-store.truncate-before: deletes a stream's events below a revision, never its newest, and
 * adds them to the per-type totals of removed events (app_removed_event_counts) in one statement,
 * inside a transaction that first takes the sequence row lock every append takes (append.ts), as
 * remove-stream.ts does: no append of the stream lands between finding its newest event and the
 * delete. The newest event keeps MAX(revision), so the stream's revision is unchanged.
 */
import { checkName, StorageFailure } from '../errors.ts';
import type { PgContext } from './connection.ts';
import { transaction } from './transaction.ts';
import { clampU64, int, type Row } from '../sql/values.ts';

export function createTruncateBefore({ pool, tables }: PgContext): (streamId: string, revision: bigint) => Promise<bigint> {
  const lockSequence = `SELECT value FROM ${tables.sequence} WHERE id FOR UPDATE`;
  const truncate = `WITH gone AS (
         DELETE FROM ${tables.events}
          WHERE stream_id = $1 AND revision < $2
            AND revision < (SELECT MAX(revision) FROM ${tables.events} WHERE stream_id = $1)
         RETURNING event_type),
       tallied AS (
         INSERT INTO ${tables.removedCounts} (event_type, count)
           SELECT event_type, COUNT(*) FROM gone GROUP BY event_type
         ON CONFLICT (event_type) DO UPDATE SET count = ${tables.removedCounts}.count + excluded.count
       )
     SELECT COUNT(*)::bigint AS n FROM gone`;
  return async function truncateBefore(streamId, revision) {
    checkName('stream id', streamId);
    if (typeof revision !== 'bigint' || revision < 0n) throw StorageFailure.invalid('revision must be a u64');
    // A bound past i64 means "below the newest" all the same.
    const bound = clampU64(revision);
    return transaction(pool, async (client) => {
      await client.query(lockSequence);
      const { rows } = await client.query<Row>(truncate, [streamId, bound.toString()]);
      return int(rows[0] ?? { n: 0n }, 'n');
    });
  };
}
