/**
 * event-store.count-by-type: the append script keeps a hash type → count, so counting is one
 * HGETALL; the prefix is matched here with a literal `startsWith` (no pattern language at all,
 * so `*`, `?`, `[`, `%`, `_` and `\` mean themselves). The result is in byte order of the
 * UTF-8 type names, like SQLite's BINARY collation.
 */
import type { Redis } from 'ioredis';
import { StorageFailure } from '../errors.ts';
import type { TypeCount } from '../types.ts';
import type { RedisKeys } from './keys.ts';
import { u64Reply } from './values.ts';

export function createCountByType(redis: Redis, keys: RedisKeys): (typePrefix: string) => Promise<TypeCount[]> {
  return async function countByType(typePrefix) {
    if (typeof typePrefix !== 'string' || typePrefix.length > 512) {
      throw StorageFailure.invalid('type prefix must be 0..=512 characters');
    }
    const counts = await redis.hgetall(keys.types);
    return Object.entries(counts)
      .filter(([eventType, count]) => eventType.startsWith(typePrefix) && count !== '0')
      .sort(([a], [b]) => Buffer.compare(Buffer.from(a), Buffer.from(b)))
      .map(([eventType, count]) => ({ eventType, count: u64Reply(count, 'type count') }));
  };
}
