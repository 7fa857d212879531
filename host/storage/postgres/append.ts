/**
 * event-store.append: check the expected revision and insert the batch in ONE transaction.
 * All or nothing: on `conflict` (or any failure) nothing was written.
 *
 * Global sequences must be 1-based, strictly increasing, gap-free, AND committed in sequence
 * order: a reader following read-all that has seen sequence n must never later find an event
 * with a smaller sequence appear. A bigserial/identity column gives none of the last two:
 * nextval() is not transactional (a rolled-back append burns its numbers, leaving a gap), and
 * two appends can take 5 and 6 and commit 6 first, so a reader at 6 skips 5 forever.
 *
 * Instead every append starts by incrementing the one row of app_event_sequence
 * (`UPDATE ... SET value = value + n RETURNING value`). The UPDATE takes that row's lock, held
 * until COMMIT or ROLLBACK, so appends are serialized on it:
 *   - the next append gets its numbers only after the previous one has finished, so commits
 *     (and their visibility to readers) happen in sequence order;
 *   - a rollback also rolls back the increment, so the numbers are reused: no gaps.
 * The price is one appender at a time per store, for the few milliseconds of the transaction;
 * reads never take the lock.
 *
 * Under that lock the stream's revision is read afresh (READ COMMITTED: each statement sees
 * everything committed before it started, including the append that held the lock before), so
 * the expectation check is exact. The UNIQUE (stream_id, revision) constraint stays the final
 * arbiter should any writer ever bypass the lock: its violation becomes a `conflict` reporting
 * the revision that won.
 */
import { checkName, revisionMatches, StorageFailure } from '../errors.ts';
import type { PoolClient } from 'pg';
import type { AsyncEventStore, ExpectedRevision, NewEvent, RecordedEvent } from '../types.ts';
import type { PgContext } from './connection.ts';
import { isUniqueViolation } from './errors.ts';
import type { StreamRevision } from './stream-revision.ts';
import { transaction } from './transaction.ts';
import { int, MAX_I64, NOW_MS, param, type Row } from './values.ts';

export type Append = AsyncEventStore['append'];

/** The constraint that decides optimistic-concurrency races (migrations.ts). */
export const STREAM_REVISION_CONSTRAINT = 'app_events_stream_revision_key';

export function checkExpected(expected: ExpectedRevision): void {
  if (expected.tag === 'exact' && (typeof expected.val !== 'bigint' || expected.val < 0n)) {
    throw StorageFailure.invalid('exact revision must be a u64');
  }
}

/** The batch insert on a client inside an open transaction, validated like append (leases.ts). */
export type AppendWrite = (client: PoolClient, streamId: string, expected: ExpectedRevision, events: NewEvent[], leased?: boolean) => Promise<RecordedEvent[]>;

export function createAppend({ pool, tables }: PgContext, streamRevision: StreamRevision): { append: Append; write: AppendWrite } {
  const bumpSequence = `UPDATE ${tables.sequence} SET value = value + $1::bigint WHERE id RETURNING value`;
  const selectRevision = `SELECT COALESCE(MAX(revision), 0)::bigint AS revision FROM ${tables.events} WHERE stream_id = $1`;
  // One statement for the whole batch; WITH ORDINALITY numbers the events 1..n in list order.
  const insert = `INSERT INTO ${tables.events} (sequence, stream_id, revision, event_type, payload, metadata, recorded_at)
     SELECT $1::bigint + e.ord, $2, $3::bigint + e.ord, e.event_type, e.payload, e.metadata, ${NOW_MS}
     FROM unnest($4::text[], $5::text[], $6::text[]) WITH ORDINALITY AS e(event_type, payload, metadata, ord)
     RETURNING recorded_at`;

  // Under a stream lease (leases.ts) no other writer can change the stream, so its revision may be
  // read in the same statement as the sequence bump: one round trip less. Its snapshot predates
  // the wait on the sequence row lock, but only appends to other streams can commit in that wait.
  const bumpAndRevision = `WITH r AS (${selectRevision.replace('$1', '$2')}), b AS (${bumpSequence})
     SELECT b.value, r.revision FROM b, r`;

  /** Sequence head before the batch and the stream's revision, with the sequence row locked. */
  async function headAndRevision(client: PoolClient, streamId: string, count: bigint, leased: boolean): Promise<[bigint, bigint]> {
    if (leased) {
      const both = await client.query<Row>(bumpAndRevision, [param(count), streamId]);
      if (both.rows[0] === undefined) throw StorageFailure.internal('the event sequence row is missing');
      return [int(both.rows[0], 'value') - count, int(both.rows[0], 'revision')];
    }
    // Takes the sequence row lock first (see above), then looks at the stream.
    const bumped = await client.query<Row>(bumpSequence, [param(count)]);
    if (bumped.rows[0] === undefined) throw StorageFailure.internal('the event sequence row is missing');
    const revision = await client.query<Row>(selectRevision, [streamId]);
    return [int(bumped.rows[0], 'value') - count, revision.rows[0] === undefined ? 0n : int(revision.rows[0], 'revision')];
  }

  /** The append's statements on a client already inside a transaction (the caller commits). */
  async function write(client: PoolClient, streamId: string, expected: ExpectedRevision, events: NewEvent[], leased = false): Promise<RecordedEvent[]> {
    const count = BigInt(events.length);
    // head = last sequence before this batch
    const [head, actual] = await headAndRevision(client, streamId, count, leased);
    // Throwing rolls back, which also undoes the increment above.
    if (!revisionMatches(expected, actual)) throw StorageFailure.conflict(streamId, expected, actual);
    if (actual + count > MAX_I64) throw StorageFailure.invalid('stream revision would overflow');
    if (count === 0n) return []; // a lease's empty append: only the expectation was checked

    const inserted = await client.query<Row>(insert, [
      param(head),
      streamId,
      param(actual),
      events.map((e) => e.eventType),
      events.map((e) => e.payload),
      events.map((e) => e.metadata),
    ]);
    const first = inserted.rows[0];
    if (inserted.rowCount !== events.length || first === undefined) throw StorageFailure.internal('insert wrote an unexpected number of events');
    // NOW_MS is one instant per statement: every event of the batch has the same time.
    const recordedAt = int(first, 'recorded_at');
    return events.map(
      (event, index): RecordedEvent => ({
        sequence: head + BigInt(index + 1),
        streamId,
        revision: actual + BigInt(index + 1),
        eventType: event.eventType,
        payload: event.payload,
        metadata: event.metadata,
        recordedAt,
      }),
    );
  }

  const append: Append = async function append(streamId, expected, events) {
    checkName('stream id', streamId);
    checkExpected(expected);
    for (const event of events) checkName('event type', event.eventType);

    if (events.length === 0) {
      // Nothing to write: only the expectation is checked (no lock needed).
      const actual = await streamRevision(streamId);
      if (!revisionMatches(expected, actual)) throw StorageFailure.conflict(streamId, expected, actual);
      return [];
    }

    try {
      return await transaction(pool, (client) => write(client, streamId, expected, events));
    } catch (error) {
      // Only reachable if a writer bypassed the sequence lock: the constraint refused our
      // revisions, and the caller must see a conflict with the revision that won.
      if (isUniqueViolation(error, STREAM_REVISION_CONSTRAINT)) {
        throw StorageFailure.conflict(streamId, expected, await streamRevision(streamId));
      }
      throw error;
    }
  };
  return { append, write };
}
