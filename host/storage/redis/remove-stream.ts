/**
 * event-store.remove-stream: one Lua script drops the stream's records, its entries in the global
 * index, its list and its base (truncate-before.ts), atomically (nothing interleaves with a script, appends included). The
 * per-type counts (`<prefix>types`) are totals of appended events and are left as they are; the
 * last assigned sequence is kept, so sequences are never assigned again.
 */
import type { Redis } from 'ioredis';
import { checkName } from '../errors.ts';
import type { RedisKeys } from './keys.ts';
import { defineScript } from './script.ts';
import { u64Reply } from './values.ts';

/** KEYS: stream, events, all, stream base. Returns how many events were removed. */
export const REMOVE_STREAM_LUA = `
local seqs = redis.call('LRANGE', KEYS[1], 0, -1)
-- unpack() is bounded by the Lua C stack: remove in chunks
for i = 1, #seqs, 500 do
  local chunk = {}
  for j = i, math.min(i + 499, #seqs) do chunk[#chunk + 1] = seqs[j] end
  redis.call('HDEL', KEYS[2], unpack(chunk))
  redis.call('ZREM', KEYS[3], unpack(chunk))
end
redis.call('DEL', KEYS[1], KEYS[4])
return tostring(#seqs)
`;

export function createRemoveStream(redis: Redis, keys: RedisKeys): (streamId: string) => Promise<bigint> {
  const script = defineScript(redis, 'wasiAppRemoveStream', REMOVE_STREAM_LUA);
  return async function removeStream(streamId) {
    checkName('stream id', streamId);
    return u64Reply(await script([keys.stream(streamId), keys.events, keys.all, keys.streamBase(streamId)], []), 'removed events');
  };
}
