/** event-store.read-all: every stream in global sequence order, after a sequence, paged. */
import type { Redis } from 'ioredis';
import { checkLimit } from '../errors.ts';
import type { AsyncEventStore } from '../types.ts';
import { toRecordedEvents } from './event-records.ts';
import type { RedisKeys } from './keys.ts';
import { defineScript } from './script.ts';
import { u64Arg } from './values.ts';

export type ReadAll = AsyncEventStore['readAll'];

/**
 * KEYS: all (the global index), events. ARGV: after (decimal u64), limit.
 * ZRANGEBYSCORE with an exclusive bound: sequences are scores, exact below 2^53.
 */
export const READ_ALL_LUA = `
local seqs = redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. ARGV[1], '+inf', 'LIMIT', 0, ARGV[2])
if #seqs == 0 then return {} end
return redis.call('HMGET', KEYS[2], unpack(seqs))
`;

export function createReadAll(redis: Redis, keys: RedisKeys): ReadAll {
  const script = defineScript(redis, 'wasiAppReadAll', READ_ALL_LUA);
  return async function readAll(afterSequence, limit) {
    checkLimit(limit);
    const after = u64Arg('after-sequence', afterSequence);
    return toRecordedEvents(await script([keys.all, keys.events], [after.toString(), limit]));
  };
}
