/**
 * Conversions between SQL values and the bigint/string types of the WIT interface, the same for
 * SQLite and PostgreSQL. SQLite is opened with `readBigInts` and PostgreSQL's pool parses int8 to
 * a bigint (each connection.ts), so every integer column arrives as a bigint and no u64/s64 ever
 * passes through a lossy JS number.
 */
import { StorageFailure } from '../errors.ts';

/** Both databases' integers are signed 64-bit; u64 arguments above this cannot be stored. */
export const MAX_I64 = 0x7fff_ffff_ffff_ffffn;
export const MIN_I64 = -0x8000_0000_0000_0000n;

export type Row = Record<string, unknown>;

export function int(row: Row, column: string): bigint {
  const value = row[column];
  if (typeof value === 'bigint') return value;
  // Defensive: both drivers are set up to give bigints, but a driver default would give text or a number.
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return BigInt(value);
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  throw StorageFailure.internal(`column ${column} is not an integer`);
}

export function text(row: Row, column: string): string {
  const value = row[column];
  if (typeof value === 'string') return value;
  throw StorageFailure.internal(`column ${column} is not text`);
}

export function optionalInt(row: Row, column: string): bigint | undefined {
  return row[column] === null ? undefined : int(row, column);
}

/** A u64 argument used only as a bound in a comparison: values beyond i64 compare like i64 max. */
export function clampU64(value: bigint): bigint {
  return value > MAX_I64 ? MAX_I64 : value < 0n ? 0n : value;
}

/** A u64 argument that will be stored: must fit the database's signed 64-bit integer. */
export function storableU64(kind: string, value: bigint): bigint {
  if (typeof value !== 'bigint' || value < 0n || value > MAX_I64) {
    throw StorageFailure.invalid(`${kind} must be an integer in 0..=${MAX_I64}`);
  }
  return value;
}
