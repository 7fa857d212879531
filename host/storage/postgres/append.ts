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
import { revisionMatches } from '../../../src/contract/revision.ts';
import { checkName, StorageFailure } from '../errors.ts';
import type { PoolClient } from 'pg';
import type { AsyncEventStore, ExpectedRevision, NewEvent, RecordedEvent } from '../types.ts';
import type { PgContext } from './connection.ts';
import { isUniqueViolation } from './errors.ts';
import type { StreamRevision } from './stream-revision.ts';
import { transaction } from './transaction.ts';
import { int, MAX_I64, type Row } from '../sql/values.ts';
import { NOW_MS, param } from './values.ts';

export type Append = AsyncEventStore['append'];

/** The constraint that decides optimistic-concurrency races (migrations.ts). */
export const STREAM_REVISION_CONSTRAINT = 'app_events_stream_revision_key';

export function checkExpected(expected: ExpectedRevision): void {
  if (expected.tag === 'exact' && (typeof expected.val !== 'bigint' || expected.val < 0n)) {
    throw StorageFailure.invalid('exact revision must be a u64');
  }
}

/**
 * A stream-lease holder's append on its own session (leases.ts): one statement, one round trip.
 * With `then`, the statement is sent with its parameters inlined as literals in one simple query,
 * `BEGIN; append; COMMIT; then`: the statements after the commit (the lease's unlock) ride along.
 */
/** The prepared statement of a leased append; one pool serves one schema, so one text per name. */
const LEASED_APPEND_STATEMENT = 'app_leased_append';

export type LeasedAppend = (client: PoolClient, streamId: string, expected: ExpectedRevision, events: NewEvent[], then?: string) => Promise<RecordedEvent[]>;

export function createAppend({ pool, tables }: PgContext, streamRevision: StreamRevision): { append: Append; leasedAppend: LeasedAppend } {
  const bumpSequence = `UPDATE ${tables.sequence} SET value = value + $1::bigint WHERE id RETURNING value`;
  const selectRevision = `SELECT COALESCE(MAX(revision), 0)::bigint AS revision FROM ${tables.events} WHERE stream_id = $1`;
  // One statement for the whole batch; WITH ORDINALITY numbers the events 1..n in list order.
  const insert = `INSERT INTO ${tables.events} (sequence, stream_id, revision, event_type, payload, metadata, recorded_at)
     SELECT $1::bigint + e.ord, $2, $3::bigint + e.ord, e.event_type, e.payload, e.metadata, ${NOW_MS}
     FROM unnest($4::text[], $5::text[], $6::text[]) WITH ORDINALITY AS e(event_type, payload, metadata, ord)
     RETURNING recorded_at`;

  /** Sequence head before the batch and the stream's revision, with the sequence row locked. */
  async function headAndRevision(client: PoolClient, streamId: string, count: bigint): Promise<[bigint, bigint]> {
    // Takes the sequence row lock first (see above), then looks at the stream.
    const bumped = await client.query<Row>(bumpSequence, [param(count)]);
    if (bumped.rows[0] === undefined) throw StorageFailure.internal('the event sequence row is missing');
    const revision = await client.query<Row>(selectRevision, [streamId]);
    return [int(bumped.rows[0], 'value') - count, revision.rows[0] === undefined ? 0n : int(revision.rows[0], 'revision')];
  }

  /** The append's statements on a client already inside a transaction (the caller commits). */
  async function write(client: PoolClient, streamId: string, expected: ExpectedRevision, events: NewEvent[]): Promise<RecordedEvent[]> {
    const count = BigInt(events.length);
    // head = last sequence before this batch
    const [head, actual] = await headAndRevision(client, streamId, count);
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
    return recorded(streamId, events, head, actual, recordedAt);
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
  // Under a stream lease no other lease holder can change the stream, so the expectation check,
  // the sequence bump and the insert can be one statement (its own transaction: the sequence row
  // lock is held to its commit as above). The stream's revision is read from the statement's
  // snapshot, taken before the wait on the sequence row; only appends to other streams, or a writer
  // bypassing the lease, can commit in that wait, and the UNIQUE constraint refuses the latter.
  // The bump (and so the insert) happens only when the expectation holds: nothing to roll back.
  const leasedSql = `WITH r AS (${selectRevision.replace('$1', '$2')}),
     b AS (UPDATE ${tables.sequence} SET value = value + $1::bigint
           WHERE id AND (SELECT revision FROM r) BETWEEN $3::bigint AND $4::bigint RETURNING value),
     i AS (INSERT INTO ${tables.events} (sequence, stream_id, revision, event_type, payload, metadata, recorded_at)
           SELECT b.value - $1::bigint + e.ord, $2, r.revision + e.ord, e.event_type, e.payload, e.metadata, ${NOW_MS}
           FROM b, r, unnest($5::text[], $6::text[], $7::text[]) WITH ORDINALITY AS e(event_type, payload, metadata, ord)
           RETURNING recorded_at)
     SELECT r.revision, (SELECT value FROM b) AS value, (SELECT MIN(recorded_at) FROM i) AS recorded_at, (SELECT COUNT(*) FROM i) AS written FROM r`;

  const leasedAppend: LeasedAppend = async function leasedAppend(client, streamId, expected, events, then) {
    const count = BigInt(events.length);
    const [low, high] = expectedRange(expected);
    const columns = [events.map((e) => e.eventType), events.map((e) => e.payload), events.map((e) => e.metadata)] as const;
    let result: { rows: Row[] };
    try {
      if (then === undefined) {
        // Named: the lease's session parses and plans it once, not on every append.
        result = await client.query<Row>({ name: LEASED_APPEND_STATEMENT, text: leasedSql, values: [param(count), streamId, param(low), param(high), ...columns] });
      } else {
        // Only integers and escapeLiteral()'d text are inlined (one pass: inlined text is not rescanned).
        const literal = (list: string[]) => `ARRAY[${list.map((v) => client.escapeLiteral(v)).join(',')}]::text[]`;
        const values = [String(count), client.escapeLiteral(streamId), String(low), String(high), ...columns.map(literal)];
        const sql = leasedSql.replace(/\$(\d)/g, (_, n: string) => values[Number(n) - 1]!);
        const results = (await client.query(`BEGIN; ${sql}; COMMIT; ${then}`)) as unknown as Array<{ rows: Row[] }>;
        result = results[1] ?? { rows: [] };
      }
    } catch (error) {
      if (isUniqueViolation(error, STREAM_REVISION_CONSTRAINT)) throw StorageFailure.conflict(streamId, expected, await streamRevision(streamId));
      throw error;
    }
    const row = result.rows[0];
    if (row === undefined) throw StorageFailure.internal('the leased append returned no row');
    const actual = int(row, 'revision');
    if (!revisionMatches(expected, actual)) throw StorageFailure.conflict(streamId, expected, actual);
    if (count === 0n) return [];
    if (row['value'] === null) throw StorageFailure.internal('the event sequence row is missing');
    if (int(row, 'written') !== count) throw StorageFailure.internal('insert wrote an unexpected number of events');
    const head = int(row, 'value') - count;
    const recordedAt = int(row, 'recorded_at');
    return recorded(streamId, events, head, actual, recordedAt);
  };
  return { append, leasedAppend };
}

/** The events as written: sequences after `head`, revisions after `actual`, one commit time. */
function recorded(streamId: string, events: NewEvent[], head: bigint, actual: bigint, recordedAt: bigint): RecordedEvent[] {
  return events.map((event, index) => ({
    sequence: head + BigInt(index + 1),
    streamId,
    revision: actual + BigInt(index + 1),
    eventType: event.eventType,
    payload: event.payload,
    metadata: event.metadata,
    recordedAt,
  }));
}

/** The revisions an expectation accepts, as an inclusive range (an exact one beyond i64 matches none). */
function expectedRange(expected: ExpectedRevision): [bigint, bigint] {
  switch (expected.tag) {
    case 'any':
      return [0n, MAX_I64];
    case 'no-stream':
      return [0n, 0n];
    case 'stream-exists':
      return [1n, MAX_I64];
    case 'exact':
      return expected.val > MAX_I64 ? [1n, 0n] : [expected.val, expected.val];
  }
}
