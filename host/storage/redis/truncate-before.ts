/**
 * event-store.truncate-before: one Lua script pops the stream's oldest sequences below a revision
 * (never the newest), drops their records and their entries in the global index, and adds their
 * number to the stream's base (`<prefix>base:<stream>`, keys.ts), atomically: revision n stays
 * element n-1-base, so the stream's revision is unchanged. The per-type counts are totals of
 * appended events and are left as they are, as remove-stream.ts leaves them.
 */
import type { Redis } from 'ioredis';
import { checkName } from '../errors.ts';
import type { RedisKeys } from './keys.ts';
import { defineScript } from './script.ts';
import { u64Arg, u64Reply } from './values.ts';

/**
 * KEYS: stream, events, all, stream base. ARGV: revision (decimal u64; as a double it is only
 * compared, and bounded by the list's length before use). Returns how many events were removed.
 */
export const TRUNCATE_BEFORE_LUA = `
local len = redis.call('LLEN', KEYS[1])
local base = tonumber(redis.call('GET', KEYS[4]) or '0')
local n = math.min(tonumber(ARGV[1]) - base - 1, len - 1)
if n < 1 then return '0' end
local seqs = redis.call('LRANGE', KEYS[1], 0, n - 1)
-- unpack() is bounded by the Lua C stack: remove in chunks
for i = 1, #seqs, 500 do
  local chunk = {}
  for j = i, math.min(i + 499, #seqs) do chunk[#chunk + 1] = seqs[j] end
  redis.call('HDEL', KEYS[2], unpack(chunk))
  redis.call('ZREM', KEYS[3], unpack(chunk))
end
redis.call('LTRIM', KEYS[1], n, -1)
redis.call('SET', KEYS[4], string.format('%.0f', base + n))
return string.format('%.0f', n)
`;

export function createTruncateBefore(redis: Redis, keys: RedisKeys): (streamId: string, revision: bigint) => Promise<bigint> {
  const script = defineScript(redis, 'wasiAppTruncateBefore', TRUNCATE_BEFORE_LUA);
  return async function truncateBefore(streamId, revision) {
    checkName('stream id', streamId);
    const bound = u64Arg('revision', revision);
    return u64Reply(await script([keys.stream(streamId), keys.events, keys.all, keys.streamBase(streamId)], [bound.toString()]), 'truncated events');
  };
}
