/**
 * Conversions between PostgreSQL values and the bigint/string types of the WIT interface.
 * The pool parses int8 (bigint, COUNT(*)) straight to a JS bigint (connection.ts), and every
 * bigint argument is bound as its decimal text, so no u64/s64 ever passes through a lossy
 * JS number in either direction.
 */
import { StorageFailure } from '../errors.ts';

/** PostgreSQL bigint is a signed 64-bit value; u64 arguments above this cannot be stored. */
export const MAX_I64 = 0x7fff_ffff_ffff_ffffn;
export const MIN_I64 = -0x8000_0000_0000_0000n;

export type Row = Record<string, unknown>;

/**
 * Milliseconds since the Unix epoch on the database server's clock, as a bigint expression.
 * Every host shares one clock this way (recorded-at, key-value expiry), whatever their own
 * clocks say. statement_timestamp() is fixed for the whole statement, so every row and every
 * comparison of one statement sees the same instant.
 */
export const NOW_MS = `floor(extract(epoch FROM statement_timestamp()) * 1000)::bigint`;

export function int(row: Row, column: string): bigint {
  const value = row[column];
  if (typeof value === 'bigint') return value;
  // Defensive: int8 is parsed to bigint by the pool, but a driver default would give text.
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return BigInt(value);
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  throw StorageFailure.internal(`column ${column} is not an integer`);
}

export function text(row: Row, column: string): string {
  const value = row[column];
  if (typeof value === 'string') return value;
  throw StorageFailure.internal(`column ${column} is not text`);
}

export function bool(row: Row, column: string): boolean {
  const value = row[column];
  if (typeof value === 'boolean') return value;
  throw StorageFailure.internal(`column ${column} is not a boolean`);
}

/** A bigint as a query parameter: its exact decimal text (cast with ::bigint in the SQL). */
export function param(value: bigint): string {
  return value.toString();
}

/** A u64 argument used only as a bound in a comparison: values beyond i64 compare like i64 max. */
export function clampU64(value: bigint): bigint {
  return value > MAX_I64 ? MAX_I64 : value < 0n ? 0n : value;
}

/** A u64 argument that will be stored: must fit PostgreSQL's signed 64-bit bigint. */
export function storableU64(kind: string, value: bigint): bigint {
  if (typeof value !== 'bigint' || value < 0n || value > MAX_I64) {
    throw StorageFailure.invalid(`${kind} must be an integer in 0..=${MAX_I64}`);
  }
  return value;
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
