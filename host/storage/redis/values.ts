/**
 * Conversions between Redis replies and the bigint/string types of the WIT interface.
 * Lua numbers are doubles, so the scripts return every u64 as a decimal string and take every
 * u64 argument as one; only values that stay far below 2^53 (sequences, revisions, versions,
 * counts) are ever computed in Lua.
 */
import { StorageFailure } from '../errors.ts';

export const U64_MAX = 2n ** 64n - 1n;
export const MAX_I64 = 2n ** 63n - 1n;
export const MIN_I64 = -(2n ** 63n);
/** Sequences and revisions are computed in Lua (doubles): they must stay exact. */
export const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** A u64 argument: a bigint in 0..=2^64-1. */
export function u64Arg(kind: string, value: bigint): bigint {
  if (typeof value !== 'bigint' || value < 0n || value > U64_MAX) throw StorageFailure.invalid(`${kind} must be a u64`);
  return value;
}

/** An s64 argument: a bigint in -2^63..=2^63-1. */
export function s64Arg(kind: string, value: bigint): bigint {
  if (typeof value !== 'bigint' || value < MIN_I64 || value > MAX_I64) throw StorageFailure.invalid(`${kind} must be an s64`);
  return value;
}

/** A non-negative integer reply (decimal string or integer), exactly. */
export function u64Reply(value: unknown, what: string): bigint {
  if (typeof value === 'string' && /^\d+$/.test(value)) return BigInt(value);
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  throw StorageFailure.internal(`redis returned a malformed ${what}`);
}

/** A signed integer reply given as a decimal string, exactly. */
export function s64Reply(value: unknown, what: string): bigint {
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return BigInt(value);
  throw StorageFailure.internal(`redis returned a malformed ${what}`);
}

export function stringReply(value: unknown, what: string): string {
  if (typeof value === 'string') return value;
  throw StorageFailure.internal(`redis returned a malformed ${what}`);
}

export function arrayReply(value: unknown, what: string): unknown[] {
  if (Array.isArray(value)) return value;
  throw StorageFailure.internal(`redis returned a malformed ${what}`);
}
