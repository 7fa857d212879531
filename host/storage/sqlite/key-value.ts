/**
 * key-value with TTL. An entry whose expires_at (ms since epoch) is <= now is absent to every
 * operation. Expired rows are cleaned lazily: the operation that meets one deletes it, and each
 * write also sweeps a few expired rows through the app_kv_by_expiry index so abandoned keys
 * (rate-limit windows nobody asks about again) do not pile up.
 */
import type { DatabaseSync } from 'node:sqlite';
import { checkName, StorageFailure } from '../errors.ts';
import { immediate } from './transaction.ts';
import { MAX_I64, MIN_I64, optionalInt, text, type Row } from '../sql/values.ts';
import { expiryAfter } from './values.ts';

export interface SqliteKeyValue {
  get(namespace: string, key: string): string | undefined;
  set(namespace: string, key: string, value: string, ttlMs: bigint | undefined): void;
  take(namespace: string, key: string): string | undefined;
  increment(namespace: string, key: string, delta: bigint, ttlMs: bigint): bigint;
  delete(namespace: string, key: string): boolean;
  sweepExpired(): number;
}

/** Rows removed per write by the background-free sweep; small so writes stay cheap. */
const SWEEP_BATCH = 32;

function checkKey(namespace: string, key: string): void {
  checkName('namespace', namespace);
  checkName('key', key);
}

function isLive(row: Row, now: number): boolean {
  const expiresAt = optionalInt(row, 'expires_at');
  return expiresAt === undefined || expiresAt > BigInt(now);
}

/** Parses a stored counter; anything but a plain s64 decimal is not a counter. */
function parseCounter(value: string): bigint {
  if (!/^-?\d{1,19}$/.test(value)) throw StorageFailure.invalid('value is not an integer');
  const parsed = BigInt(value);
  if (parsed > MAX_I64 || parsed < MIN_I64) throw StorageFailure.invalid('value is not an s64 integer');
  return parsed;
}

export function createKeyValue(db: DatabaseSync, clock: () => number = Date.now): SqliteKeyValue {
  const select = db.prepare('SELECT value, expires_at FROM app_kv WHERE namespace = ? AND key = ?');
  const upsert = db.prepare(
    `INSERT INTO app_kv (namespace, key, value, expires_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at`,
  );
  const updateValue = db.prepare('UPDATE app_kv SET value = ? WHERE namespace = ? AND key = ?');
  // RETURNING makes read-and-remove one statement: at most one caller sees the row.
  const remove = db.prepare('DELETE FROM app_kv WHERE namespace = ? AND key = ? RETURNING value, expires_at');
  // Conditional, so an entry re-set with a fresh TTL in the meantime is not removed.
  const removeIfExpired = db.prepare('DELETE FROM app_kv WHERE namespace = ? AND key = ? AND expires_at <= ?');
  const sweep = db.prepare(
    `DELETE FROM app_kv WHERE rowid IN
       (SELECT rowid FROM app_kv WHERE expires_at <= ? LIMIT ${SWEEP_BATCH})`,
  );

  const sweepAll = db.prepare('DELETE FROM app_kv WHERE expires_at <= ?');

  return {
    sweepExpired() {
      return Number(sweepAll.run(clock()).changes);
    },

    get(namespace, key) {
      checkKey(namespace, key);
      const now = clock();
      const row = select.get(namespace, key);
      if (row === undefined) return undefined;
      if (isLive(row, now)) return text(row, 'value');
      try {
        removeIfExpired.run(namespace, key, now);
      } catch {
        // Cleanup is best effort: a read must not fail because the row could not be removed
        // now (e.g. another connection holds the write lock); a later write sweeps it.
      }
      return undefined;
    },

    set(namespace, key, value, ttlMs) {
      checkKey(namespace, key);
      const now = clock();
      const expiresAt = ttlMs === undefined ? null : expiryAfter(now, ttlMs);
      immediate(db, () => {
        sweep.run(now);
        upsert.run(namespace, key, value, expiresAt);
      });
    },

    take(namespace, key) {
      checkKey(namespace, key);
      const now = clock();
      const row = remove.get(namespace, key);
      // An expired row is deleted all the same: that is its lazy cleanup.
      return row !== undefined && isLive(row, now) ? text(row, 'value') : undefined;
    },

    increment(namespace, key, delta, ttlMs) {
      checkKey(namespace, key);
      if (typeof delta !== 'bigint' || delta > MAX_I64 || delta < MIN_I64) throw StorageFailure.invalid('delta must be an s64');
      const now = clock();
      const expiresAt = expiryAfter(now, ttlMs);
      return immediate(db, () => {
        sweep.run(now);
        const row = select.get(namespace, key);
        if (row === undefined || !isLive(row, now)) {
          // Absent (or expired, which is the same): starts from 0 with a fresh TTL.
          upsert.run(namespace, key, delta.toString(), expiresAt);
          return delta;
        }
        const next = parseCounter(text(row, 'value')) + delta;
        if (next > MAX_I64 || next < MIN_I64) throw StorageFailure.invalid('increment would overflow s64');
        // Only the value changes: an existing entry keeps its expiry (a fixed rate-limit window).
        updateValue.run(next.toString(), namespace, key);
        return next;
      });
    },

    delete(namespace, key) {
      checkKey(namespace, key);
      const now = clock();
      const row = remove.get(namespace, key);
      return row !== undefined && isLive(row, now);
    },
  };
}
