/**
 * key-value with TTL. An entry whose expires_at (ms since epoch, on the database server's clock,
 * shared by every host) is <= now is absent to every operation. Every operation is a single
 * statement, atomic on its own: no read-then-write races between hosts.
 *
 * Expired rows are cleaned lazily: the operation that meets one deletes it, and each write also
 * sweeps a few expired rows of other keys through the app_kv_by_expiry index (SKIP LOCKED, so
 * hosts never wait on each other's sweeps) so abandoned keys do not pile up.
 */
import { checkName, StorageFailure } from '../errors.ts';
import type { PgContext } from './connection.ts';
import { sqlState } from './errors.ts';
import { MAX_I64, text, type Row } from '../sql/values.ts';
import { bool, checkS64, checkTtl, NOW_MS, param } from './values.ts';
import type { AsyncKeyValue } from '../types.ts';

/** Rows removed per write by the sweep; small so writes stay cheap. */
const SWEEP_BATCH = 32;

/** A live row: no expiry, or one still in the future. */
const LIVE = (alias: string) => `(${alias}.expires_at IS NULL OR ${alias}.expires_at > ${NOW_MS})`;

function checkKey(namespace: string, key: string): void {
  checkName('namespace', namespace);
  checkName('key', key);
}

export function createKeyValue({ pool, tables }: PgContext): AsyncKeyValue {
  /** now + ttl (a u64 bound as text) in numeric, saturated at i64 max: never overflows. */
  const expiry = (ttl: string) => `LEAST(${NOW_MS}::numeric + ${ttl}::numeric, ${MAX_I64})::bigint`;
  // A data-modifying WITH runs exactly once even though the main statement ignores it. The key
  // being written is excluded: one statement must not delete and upsert the same row.
  const sweep = `sweep AS (
       DELETE FROM ${tables.kv} WHERE (namespace, key) IN (
         SELECT namespace, key FROM ${tables.kv}
         WHERE expires_at <= ${NOW_MS} AND NOT (namespace = $1 AND key = $2)
         LIMIT ${SWEEP_BATCH} FOR UPDATE SKIP LOCKED))`;

  const select = `SELECT kv.value, ${LIVE('kv')} AS live FROM ${tables.kv} kv WHERE namespace = $1 AND key = $2`;
  // Conditional, so an entry re-set with a fresh TTL in the meantime is not removed.
  const removeIfExpired = `DELETE FROM ${tables.kv} WHERE namespace = $1 AND key = $2 AND expires_at <= ${NOW_MS}`;
  const upsert = `WITH ${sweep}
     INSERT INTO ${tables.kv} (namespace, key, value, expires_at)
     VALUES ($1, $2, $3, CASE WHEN $4::text IS NULL THEN NULL ELSE ${expiry('$4')} END)
     ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at`;
  // RETURNING makes read-and-remove one statement: at most one caller gets the row. An expired
  // row is deleted all the same: that is its lazy cleanup.
  const remove = `DELETE FROM ${tables.kv} kv WHERE namespace = $1 AND key = $2 RETURNING kv.value, ${LIVE('kv')} AS live`;
  // One atomic upsert. Absent or expired: starts from delta with a fresh expiry. Live: adds delta
  // to the stored integer and keeps its expiry (a fixed rate-limit window, or none at all).
  // The stored text must be a plain s64 decimal ('x' || value makes anything else fail the
  // bigint cast with 22P02); an overflowing sum fails with 22003. Both change nothing.
  const increment = `WITH ${sweep}
     INSERT INTO ${tables.kv} AS kv (namespace, key, value, expires_at)
     VALUES ($1, $2, $3::bigint::text, ${expiry('$4')})
     ON CONFLICT (namespace, key) DO UPDATE SET
       value = CASE WHEN ${LIVE('kv')}
                 THEN ((CASE WHEN kv.value ~ '^-?[0-9]{1,19}$' THEN kv.value ELSE 'x' || kv.value END)::bigint
                       + $3::bigint)::text
                 ELSE excluded.value END,
       expires_at = CASE WHEN ${LIVE('kv')} THEN kv.expires_at ELSE excluded.expires_at END
     RETURNING kv.value`;

  const sweepAll = `DELETE FROM ${tables.kv} WHERE expires_at <= ${NOW_MS}`;

  return {
    async sweepExpired() {
      return (await pool.query(sweepAll)).rowCount ?? 0;
    },

    async get(namespace, key) {
      checkKey(namespace, key);
      const { rows } = await pool.query<Row>(select, [namespace, key]);
      const row = rows[0];
      if (row === undefined) return undefined;
      if (bool(row, 'live')) return text(row, 'value');
      try {
        await pool.query(removeIfExpired, [namespace, key]);
      } catch {
        // Cleanup is best effort: a read must not fail because the row could not be removed
        // now; a later write sweeps it.
      }
      return undefined;
    },

    async set(namespace, key, value, ttlMs) {
      checkKey(namespace, key);
      const ttl = ttlMs === undefined ? null : param(checkTtl(ttlMs));
      await pool.query(upsert, [namespace, key, value, ttl]);
    },

    async take(namespace, key) {
      checkKey(namespace, key);
      const { rows } = await pool.query<Row>(remove, [namespace, key]);
      const row = rows[0];
      return row !== undefined && bool(row, 'live') ? text(row, 'value') : undefined;
    },

    async increment(namespace, key, delta, ttlMs) {
      checkKey(namespace, key);
      checkS64('delta', delta);
      checkTtl(ttlMs);
      try {
        const { rows } = await pool.query<Row>(increment, [namespace, key, param(delta), param(ttlMs)]);
        const row = rows[0];
        if (row === undefined) throw StorageFailure.internal('increment returned no value');
        return BigInt(text(row, 'value'));
      } catch (error) {
        const state = sqlState(error);
        if (state === '22P02') throw StorageFailure.invalid('value is not an integer');
        if (state === '22003') throw StorageFailure.invalid('increment would overflow s64');
        throw error;
      }
    },

    async delete(namespace, key) {
      checkKey(namespace, key);
      const { rows } = await pool.query<Row>(remove, [namespace, key]);
      const row = rows[0];
      return row !== undefined && bool(row, 'live');
    },
  };
}
