/**
 * stream-lease on PostgreSQL: a turn is a pooled session holding a session-level advisory lock
 * keyed by (schema, stream) (PostgreSQL manual, "Advisory Locks", pg_advisory_lock).
 *
 * - Waiting is PostgreSQL's own lock queue: no polling; `lock_timeout` bounds the wait
 *   (SQLSTATE 55P03 → no turn, the caller answers "try again").
 * - One acquire is one round trip: one simple query sets the wait, takes the lock, sets the
 *   session's `idle_session_timeout` to the lease time, reads txid_current() as the fencing token
 *   (transaction ids are assigned in increasing order) and the stream's newest events (the tail
 *   the host answers the holder's load from).
 * - The lock outlives transactions, so the lease is reusable: each append is one statement
 *   committed on its own (append.ts, LeasedAppend), and the host may hand the lease to its next
 *   local writer. The next holder always sees the events: every append committed before it returned.
 * - A killed holder's connection closes and the server unlocks at once. A holder whose host
 *   stopped (frozen) is cut off by `idle_session_timeout`: the server terminates the session,
 *   which frees the lock and makes its later append fail (fencing by the server itself). A live
 *   host renews by sending a query now and then, which restarts that clock.
 * - Release unlocks and restores the session's timeout before it goes back to the pool.
 */
import { createHash } from 'node:crypto';
import type { PoolClient } from 'pg';
import { checkName, StorageFailure } from '../errors.ts';
import type { HeldLease, StreamLeaseBackend } from '../../leases/port.ts';
import type { LeasedAppend } from './append.ts';
import { checkExpected } from './append.ts';
import type { PgContext } from './connection.ts';
import { isUnavailable, sqlState, toStorageFailure } from './errors.ts';
import { EVENT_COLUMNS, toRecordedEvent } from '../sql/event-rows.ts';
import type { Row } from '../sql/values.ts';

/** lock_timeout, or the pool's statement_timeout when it is the shorter: either way the turn did not come. */
const NO_TURN = new Set(['55P03', '57014']);

/** A signed 64-bit advisory-lock key for the stream; a collision only makes two streams share turns. */
export function lockKey(schema: string, streamId: string): bigint {
  return createHash('sha256').update(schema).update('\0').update(streamId).digest().readBigInt64BE(0);
}

type Results = Array<{ rows: Row[] }>;

/** Ends a lease: unlock, and the session's timeout back to its default before it is pooled. */
const UNLOCK = (key: bigint): string => `SELECT pg_advisory_unlock(${key}); RESET idle_session_timeout`;

export function createLeases({ pool, tables }: PgContext, leasedAppend: LeasedAppend, ttlMs: number): StreamLeaseBackend {
  return {
    ttlMs,
    async acquire(streamId, waitMs, tailEvents) {
      checkName('stream id', streamId);
      const client = await pool.connect();
      let broken: Error | undefined;
      const onError = (error: Error): void => {
        broken ??= error;
      };
      client.on('error', onError);
      const finish = (): void => {
        client.removeListener('error', onError);
        client.release(broken);
      };
      const key = lockKey(tables.schemaName, streamId);
      const tail = tailEvents === undefined ? 0 : Math.max(0, Math.floor(tailEvents));
      try {
        // Integers and one escaped literal are interpolated: a simple query may hold several
        // statements (they run as one implicit transaction; the SETs and the lock outlive it).
        const results = (await client.query(
          `SET lock_timeout = ${Math.max(1, Math.floor(waitMs))}; SELECT pg_advisory_lock(${key});` +
            ` RESET lock_timeout; SET idle_session_timeout = ${ttlMs}; SELECT txid_current()::text AS token;` +
            ` SELECT ${EVENT_COLUMNS} FROM ${tables.events} WHERE stream_id = ${client.escapeLiteral(streamId)} ORDER BY revision DESC LIMIT ${tail}`,
        )) as unknown as Results;
        const token = results.at(-2)?.rows[0]?.['token'];
        if (typeof token !== 'string') throw StorageFailure.internal('the lease query returned no token');
        const newest = tailEvents === undefined ? undefined : (results.at(-1)?.rows ?? []).map(toRecordedEvent);
        return pgLease({ client, key, token: BigInt(token), streamId, leasedAppend, finish, broken: () => broken, poison: onError, tail: newest });
      } catch (error) {
        const noTurn = NO_TURN.has(sqlState(error) ?? '');
        if (!noTurn) {
          // Whatever of the query ran is unknown: the session may hold the lock. Never reuse it.
          broken ??= error instanceof Error ? error : new Error(String(error));
        }
        finish();
        if (noTurn) return undefined;
        throw toStorageFailure(error);
      }
    },
  };
}

interface LeaseSession {
  client: PoolClient;
  key: bigint;
  token: bigint;
  streamId: string;
  leasedAppend: LeasedAppend;
  finish: () => void;
  broken: () => Error | undefined;
  /** Marks the session unusable: finish() then destroys it instead of pooling it. */
  poison: (error: Error) => void;
  tail: HeldLease['tail'];
}

function pgLease(session: LeaseSession): HeldLease {
  const { client, key, token, streamId, leasedAppend, finish, broken, poison, tail } = session;
  let ended = false;
  let appending = 0;
  const end = (): void => {
    if (ended) return;
    ended = true;
    finish();
  };
  return {
    token,
    reusable: true,
    ...(tail === undefined ? {} : { tail }),
    async append(expected, events, options) {
      if (ended) throw StorageFailure.unavailable('the stream lease has ended');
      if (broken() !== undefined) {
        // The server ended the session (lease time passed, or it went away): give the client back.
        end();
        throw StorageFailure.unavailable('the stream lease has ended');
      }
      checkExpected(expected);
      for (const event of events) checkName('event type', event.eventType);
      appending++;
      const release = options?.release === true;
      try {
        const recorded = await leasedAppend(client, streamId, expected, events, release ? UNLOCK(key) : undefined);
        if (release) end(); // unlocked by the same round trip (a conflict reply committed nothing)
        return recorded;
      } catch (error) {
        // Failed inside the simple query: its transaction is aborted and the unlock did not run.
        if (release) await unlock('ROLLBACK; ');
        if (error instanceof StorageFailure) throw error;
        // A session the server terminated (its lease time passed) is the fenced-off holder.
        throw isUnavailable(error) || broken() !== undefined ? StorageFailure.unavailable('the stream lease has ended') : toStorageFailure(error);
      } finally {
        appending--;
      }
    },
    async renew() {
      if (ended || broken() !== undefined) return false;
      if (appending > 0) return true; // a statement is running: the session is not idle
      // Any query restarts the server's idle-session clock.
      await client.query('SELECT 1');
      return broken() === undefined;
    },
    release: () => unlock(''),
  };

  async function unlock(before: string): Promise<void> {
    if (ended) return;
    try {
      if (broken() === undefined) await client.query(before + UNLOCK(key));
    } catch (error) {
      // The session may still hold the lock: destroy it instead of pooling it.
      poison(error instanceof Error ? error : new Error(String(error)));
    } finally {
      end();
    }
  }
}
