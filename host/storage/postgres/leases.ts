/**
 * stream-lease on PostgreSQL: a turn is an open transaction holding a transaction-scoped advisory
 * lock keyed by (schema, stream) (PostgreSQL manual, "Advisory Locks", pg_advisory_xact_lock).
 *
 * - Waiting is PostgreSQL's own lock queue: no polling; `lock_timeout` bounds the wait
 *   (SQLSTATE 55P03 → no turn, the caller answers "try again").
 * - The lease's append runs in that same transaction and commits it: the lock is released by the
 *   COMMIT that makes the events visible, so the next holder always reads them.
 * - A killed holder's connection closes and the server rolls back and unlocks at once; a stalled
 *   holder is cut off by `idle_in_transaction_session_timeout` = the lease time, which also
 *   terminates its session: its later append fails (fencing by the server itself).
 * - The fencing token is txid_current(), taken after the lock: transaction ids are assigned in
 *   increasing order, so each turn's token exceeds every earlier turn's.
 * One acquire is one round trip (BEGIN, the settings, the lock and the token in one simple query).
 */
import { createHash } from 'node:crypto';
import type { PoolClient } from 'pg';
import { checkName, StorageFailure } from '../errors.ts';
import type { HeldLease, StreamLeaseBackend } from '../types.ts';
import type { AppendWrite } from './append.ts';
import { checkExpected } from './append.ts';
import type { PgContext } from './connection.ts';
import { isUnavailable, sqlState, toStorageFailure } from './errors.ts';

/** lock_timeout, or the pool's statement_timeout when it is the shorter: either way the turn did not come. */
const NO_TURN = new Set(['55P03', '57014']);

/** A signed 64-bit advisory-lock key for the stream; a collision only makes two streams share turns. */
export function lockKey(schema: string, streamId: string): bigint {
  return createHash('sha256').update(schema).update('\0').update(streamId).digest().readBigInt64BE(0);
}

export function createLeases({ pool, tables }: PgContext, write: AppendWrite, ttlMs: number): StreamLeaseBackend {
  return {
    ttlMs,
    async acquire(streamId, waitMs) {
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
      try {
        // Integers only are interpolated (no text): a simple query may hold several statements.
        const results = await client.query(
          `BEGIN; SET LOCAL lock_timeout = ${Math.max(1, Math.floor(waitMs))};` +
            ` SET LOCAL idle_in_transaction_session_timeout = ${ttlMs};` +
            ` SELECT pg_advisory_xact_lock(${lockKey(tables.schemaName, streamId)});` +
            ` SET LOCAL lock_timeout = 0; SELECT txid_current()::text AS token`,
        );
        const last = (results as unknown as Array<{ rows: Array<{ token?: unknown }> }>).at(-1);
        const token = last?.rows[0]?.token;
        if (typeof token !== 'string') throw StorageFailure.internal('the lease query returned no token');
        return pgLease({ client, token: BigInt(token), streamId, write, finish, broken: () => broken });
      } catch (error) {
        await client.query('ROLLBACK').catch((e: unknown) => (broken ??= e instanceof Error ? e : new Error(String(e))));
        const noTurn = NO_TURN.has(sqlState(error) ?? '');
        if (isUnavailable(error) && !noTurn) broken ??= error instanceof Error ? error : new Error(String(error));
        finish();
        if (noTurn) return undefined;
        throw toStorageFailure(error);
      }
    },
  };
}

interface LeaseSession {
  client: PoolClient;
  token: bigint;
  streamId: string;
  write: AppendWrite;
  finish: () => void;
  broken: () => Error | undefined;
}

function pgLease(session: LeaseSession): HeldLease {
  const { client, token, streamId, write, finish, broken } = session;
  let open = true;
  let ended = false;
  return {
    token,
    async append(expected, events) {
      if (!open) throw StorageFailure.unavailable('the stream lease has ended');
      if (broken() !== undefined) {
        // The server ended the session (lease time passed, or it went away): give the client back.
        open = false;
        ended = true;
        finish();
        throw StorageFailure.unavailable('the stream lease has ended');
      }
      checkExpected(expected);
      for (const event of events) checkName('event type', event.eventType);
      // The turn ends with this append: committed with it, or rolled back with its failure.
      open = false;
      try {
        const recorded = await write(client, streamId, expected, events, true);
        await client.query('COMMIT');
        return recorded;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        if (error instanceof StorageFailure) throw error;
        // A session the server terminated (its lease time passed) is the fenced-off holder.
        throw isUnavailable(error) ? StorageFailure.unavailable('the stream lease has ended') : toStorageFailure(error);
      } finally {
        ended = true;
        finish();
      }
    },
    async renew() {
      // A query resets the server's idle-in-transaction clock; while the append runs it is not idle.
      if (ended || broken() !== undefined) return false;
      if (!open) return true; // the append is running: the session is not idle
      await client.query('SELECT 1');
      return broken() === undefined;
    },
    async release() {
      if (!open) return;
      open = false;
      ended = true;
      await client.query('ROLLBACK').catch(() => {});
      finish();
    },
  };
}
