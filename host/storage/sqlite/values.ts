/** SQLite-only value rules: SQLite has no shared clock, so expiries are computed from the host's. */
import { StorageFailure } from '../errors.ts';
import { MAX_I64 } from '../sql/values.ts';

/** An absolute expiry (ms since epoch) `ttlMs` after `now`, saturating instead of overflowing. */
export function expiryAfter(now: number, ttlMs: bigint): bigint {
  if (typeof ttlMs !== 'bigint' || ttlMs < 0n) throw StorageFailure.invalid('ttl-ms must be a u64');
  const at = BigInt(now) + ttlMs;
  return at > MAX_I64 ? MAX_I64 : at;
}
