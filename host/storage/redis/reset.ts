/**
 * reset(): deletes every key under the prefix (found with SCAN MATCH, the prefix's glob
 * characters escaped, and each key checked again byte for byte) in batches with UNLINK, which
 * frees memory in the background. `<prefix>schema_version` is kept, like SQLite keeps its
 * schema: the layout stays migrated. Keys outside the prefix are never touched.
 * Not atomic: run it while no host is writing (it is for tests and fresh starts).
 */
import type { Redis } from 'ioredis';
import { prefixPattern, type RedisKeys } from './keys.ts';

const SCAN_BATCH = 1000;

/** Deletes every key starting with `prefix` except those in `keep`; returns how many. */
export async function deletePrefixed(redis: Redis, prefix: string, keep: readonly string[] = []): Promise<number> {
  if (prefix.length === 0) throw new Error('refusing to delete with an empty prefix');
  const prefixBytes = Buffer.from(prefix);
  const kept = keep.map((key) => Buffer.from(key));
  let cursor: string = '0';
  let deleted = 0;
  do {
    // Buffers, so a key that is not valid UTF-8 is deleted exactly as it is named.
    const [next, found] = await redis.scanBuffer(cursor, 'MATCH', prefixPattern(prefix), 'COUNT', SCAN_BATCH);
    cursor = next.toString();
    const doomed = found.filter((key) => key.subarray(0, prefixBytes.length).equals(prefixBytes) && !kept.some((k) => k.equals(key)));
    if (doomed.length > 0) deleted += await redis.unlink(...doomed);
  } while (cursor !== '0');
  return deleted;
}

export function createReset(redis: Redis, keys: RedisKeys): () => Promise<void> {
  return async function reset() {
    await deletePrefixed(redis, keys.prefix, [keys.schemaVersion]);
  };
}
