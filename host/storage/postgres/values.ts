/**
 * PostgreSQL-only value rules (the shared row mapping is ../sql/values.ts): every bigint argument
 * is bound as its decimal text, so no u64/s64 passes through a lossy JS number on the way in
 * either; the server's clock is the one every host shares.
 */
import { StorageFailure } from '../errors.ts';
import { MAX_I64, MIN_I64, type Row } from '../sql/values.ts';

/**
 * Milliseconds since the Unix epoch on the database server's clock, as a bigint expression.
 * Every host shares one clock this way (recorded-at, key-value expiry), whatever their own
 * clocks say. statement_timestamp() is fixed for the whole statement, so every row and every
 * comparison of one statement sees the same instant.
 */
export const NOW_MS = `floor(extract(epoch FROM statement_timestamp()) * 1000)::bigint`;

export function bool(row: Row, column: string): boolean {
  const value = row[column];
  if (typeof value === 'boolean') return value;
  throw StorageFailure.internal(`column ${column} is not a boolean`);
}

/** A bigint as a query parameter: its exact decimal text (cast with ::bigint in the SQL). */
export function param(value: bigint): string {
  return value.toString();
}

/** A ttl-ms argument: any u64 (the SQL adds it to now as numeric and saturates at i64 max). */
export function checkTtl(ttlMs: bigint): bigint {
  if (typeof ttlMs !== 'bigint' || ttlMs < 0n || ttlMs > 0xffff_ffff_ffff_ffffn) throw StorageFailure.invalid('ttl-ms must be a u64');
  return ttlMs;
}

/** An s64 argument. */
export function checkS64(kind: string, value: bigint): bigint {
  if (typeof value !== 'bigint' || value > MAX_I64 || value < MIN_I64) throw StorageFailure.invalid(`${kind} must be an s64`);
  return value;
}
