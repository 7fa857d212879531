/**
 * key-value with TTL on native Redis expiry (PX): an expired entry is gone for every command,
 * and Redis removes abandoned keys itself, so no sweeping is needed. `take` is GETDEL (atomic:
 * at most one caller gets a value). `increment` is a script so that "a new entry gets the ttl,
 * an existing one keeps its expiry" holds under concurrency; the arithmetic is Redis' own
 * INCRBY (exact signed 64-bit, overflow refused), and the result is read back as a string
 * because a Lua number would round it above 2^53.
 */
import type { Redis } from 'ioredis';
import { checkName, StorageFailure } from '../errors.ts';
import type { RedisKeys } from './keys.ts';
import { defineScript, INVALID_REPLY } from './script.ts';
import { s64Arg, s64Reply } from './values.ts';
import type { AsyncKeyValue } from '../types.ts';

/**
 * TTLs are capped here (about 285,000 years): Redis refuses an expiry time that overflows its
 * clock arithmetic, and an entry that outlives the server is as good as permanent.
 */
export const MAX_TTL_MS = 2n ** 53n - 1n;

/**
 * KEYS: the entry. ARGV: delta (decimal s64), ttl ms for a new entry ('0' = expires at once).
 * Returns the new value as a decimal string.
 */
export const INCREMENT_LUA = `
if redis.call('EXISTS', KEYS[1]) == 0 then
  if ARGV[2] ~= '0' then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) end
  return ARGV[1]
end
local result = redis.pcall('INCRBY', KEYS[1], ARGV[1])
if type(result) == 'table' and result.err then
  return redis.error_reply('${INVALID_REPLY} ' .. string.gsub(result.err, '^ERR ', ''))
end
return redis.call('GET', KEYS[1])
`;

function checkKey(namespace: string, key: string): void {
  checkName('namespace', namespace);
  checkName('key', key);
}

/** A u64 ttl in ms, capped at MAX_TTL_MS, as a decimal string. */
function ttlArg(ttlMs: bigint): string {
  if (typeof ttlMs !== 'bigint' || ttlMs < 0n || ttlMs >= 2n ** 64n) throw StorageFailure.invalid('ttl-ms must be a u64');
  return (ttlMs > MAX_TTL_MS ? MAX_TTL_MS : ttlMs).toString();
}

export function createKeyValue(redis: Redis, keys: RedisKeys): AsyncKeyValue {
  const incrementScript = defineScript(redis, 'wasiAppIncrement', INCREMENT_LUA);

  return {
    async get(namespace, key) {
      checkKey(namespace, key);
      return (await redis.get(keys.keyValue(namespace, key))) ?? undefined;
    },

    async set(namespace, key, value, ttlMs) {
      checkKey(namespace, key);
      if (typeof value !== 'string') throw StorageFailure.invalid('value must be text');
      const entry = keys.keyValue(namespace, key);
      if (ttlMs === undefined) {
        // A plain SET also clears any expiry the old entry had.
        await redis.set(entry, value);
        return;
      }
      const ttl = ttlArg(ttlMs);
      // ttl 0 expires at once: the entry is replaced by nothing.
      if (ttl === '0') await redis.del(entry);
      else await redis.set(entry, value, 'PX', ttl);
    },

    async take(namespace, key) {
      checkKey(namespace, key);
      return (await redis.getdel(keys.keyValue(namespace, key))) ?? undefined;
    },

    async increment(namespace, key, delta, ttlMs) {
      checkKey(namespace, key);
      s64Arg('delta', delta);
      const ttl = ttlArg(ttlMs);
      return s64Reply(await incrementScript([keys.keyValue(namespace, key)], [delta.toString(), ttl]), 'counter');
    },

    async delete(namespace, key) {
      checkKey(namespace, key);
      return (await redis.del(keys.keyValue(namespace, key))) > 0;
    },
  };
}
