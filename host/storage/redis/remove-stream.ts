/**
 * event-store.remove-stream: one Lua script checks the expected revision, then drops the stream's
 * records, its entries in the global index, its list and its base (truncate-before.ts),
 * atomically (nothing interleaves with a script, appends included). The per-type counts
 * (`<prefix>types`) are totals of appended events and are left as they are; the last assigned
 * sequence is kept, so sequences are never assigned again.
 */
import type { Redis } from 'ioredis';
import { checkName, StorageFailure } from '../errors.ts';
import type { ExpectedRevision } from '../types.ts';
import { checkExpected, EXPECTATION_LUA, expectationArgs } from './expectation.ts';
import type { RedisKeys } from './keys.ts';
import { defineScript } from './script.ts';
import { arrayReply, u64Reply } from './values.ts';

/**
 * KEYS: stream, events, all, stream base. ARGV: expected tag, exact revision (decimal, '' unless exact).
 * Returns {'conflict', actual} or {'ok', how many events were removed}.
 */
export const REMOVE_STREAM_LUA = `
local seqs = redis.call('LRANGE', KEYS[1], 0, -1)
local actual = #seqs + tonumber(redis.call('GET', KEYS[4]) or '0')
${EXPECTATION_LUA}
-- unpack() is bounded by the Lua C stack: remove in chunks
for i = 1, #seqs, 500 do
  local chunk = {}
  for j = i, math.min(i + 499, #seqs) do chunk[#chunk + 1] = seqs[j] end
  redis.call('HDEL', KEYS[2], unpack(chunk))
  redis.call('ZREM', KEYS[3], unpack(chunk))
end
redis.call('DEL', KEYS[1], KEYS[4])
return {'ok', tostring(#seqs)}
`;

export function createRemoveStream(redis: Redis, keys: RedisKeys): (streamId: string, expected: ExpectedRevision) => Promise<bigint> {
  const script = defineScript(redis, 'wasiAppRemoveStream', REMOVE_STREAM_LUA);
  return async function removeStream(streamId, expected) {
    checkName('stream id', streamId);
    checkExpected(expected);
    const reply = arrayReply(await script([keys.stream(streamId), keys.events, keys.all, keys.streamBase(streamId)], expectationArgs(expected)), 'remove-stream reply');
    if (reply[0] === 'conflict') throw StorageFailure.conflict(streamId, expected, u64Reply(reply[1], 'revision'));
    if (reply[0] !== 'ok') throw StorageFailure.internal(`redis: unexpected remove-stream reply ${String(reply[0])}`);
    return u64Reply(reply[1], 'removed events');
  };
}
