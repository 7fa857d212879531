/**
 * event-store.remove-stream: checks the expected revision, then deletes the stream's events and
 * adds them to the per-type totals of removed events (app_removed_event_counts) in one statement,
 * inside a transaction that first takes the sequence row lock every append takes (append.ts): no
 * append of the stream can land between the check, the count and the delete (READ COMMITTED: the
 * statements after the lock see every append committed before it). The last assigned sequence is
 * kept, so sequences are never assigned again.
 */
import { revisionMatches } from '../../../src/contract/revision.ts';
import { checkName, StorageFailure } from '../errors.ts';
import type { ExpectedRevision } from '../types.ts';
import { checkExpected } from './append.ts';
import type { PgContext } from './connection.ts';
import { transaction } from './transaction.ts';
import { int, type Row } from '../sql/values.ts';

export function createRemoveStream({ pool, tables }: PgContext): (streamId: string, expected: ExpectedRevision) => Promise<bigint> {
  const lockSequence = `SELECT value FROM ${tables.sequence} WHERE id FOR UPDATE`;
  const selectRevision = `SELECT COALESCE(MAX(revision), 0)::bigint AS revision FROM ${tables.events} WHERE stream_id = $1`;
  const remove = `WITH gone AS (DELETE FROM ${tables.events} WHERE stream_id = $1 RETURNING event_type),
       tallied AS (
         INSERT INTO ${tables.removedCounts} (event_type, count)
           SELECT event_type, COUNT(*) FROM gone GROUP BY event_type
         ON CONFLICT (event_type) DO UPDATE SET count = ${tables.removedCounts}.count + excluded.count
       )
     SELECT COUNT(*)::bigint AS n FROM gone`;
  return async function removeStream(streamId, expected) {
    checkName('stream id', streamId);
    checkExpected(expected);
    return transaction(pool, async (client) => {
      await client.query(lockSequence);
      if (expected.tag !== 'any') {
        const { rows } = await client.query<Row>(selectRevision, [streamId]);
        const actual = rows[0] === undefined ? 0n : int(rows[0], 'revision');
        if (!revisionMatches(expected, actual)) throw StorageFailure.conflict(streamId, expected, actual);
      }
      const { rows } = await client.query<Row>(remove, [streamId]);
      return int(rows[0] ?? { n: 0n }, 'n');
    });
  };
}
