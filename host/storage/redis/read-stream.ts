/**
 * event-store.read-stream: one stream in revision order, forward or backward, from a revision.
 * A script turns the revision window into list positions (revision n is element n-1-base, the
 * base being the revisions truncated, keys.ts) and fetches the records, so the length, the window
 * and the records come from one snapshot.
 */
import type { Redis } from 'ioredis';
import { checkLimit, checkName, StorageFailure } from '../errors.ts';
import type { AsyncEventStore } from '../types.ts';
import { toRecordedEvents } from './event-records.ts';
import type { RedisKeys } from './keys.ts';
import { defineScript } from './script.ts';
import { u64Arg } from './values.ts';

export type ReadStream = AsyncEventStore['readStream'];

/**
 * KEYS: stream, events, stream base. ARGV: 'forward' | 'backward', from revision ('' = default), limit.
 * Returns the records in list order (the host reverses a backward read). `from` may be any u64:
 * as a double it is only compared, never used as a position unless it is within the stream.
 */
export const READ_STREAM_LUA = `
local len = redis.call('LLEN', KEYS[1])
local base = tonumber(redis.call('GET', KEYS[3]) or '0')
local limit = tonumber(ARGV[3])
local first, last
if ARGV[1] == 'forward' then
  local from = 1
  if ARGV[2] ~= '' then from = tonumber(ARGV[2]) - base end
  if from < 1 then from = 1 end
  if from > len then return {} end
  first = from - 1
  last = math.min(from - 1 + limit, len) - 1
else
  local from = len
  if ARGV[2] ~= '' then from = math.min(tonumber(ARGV[2]) - base, len) end
  if from < 1 then return {} end
  last = from - 1
  first = math.max(from - limit, 0)
end
local seqs = redis.call('LRANGE', KEYS[1], first, last)
if #seqs == 0 then return {} end
return redis.call('HMGET', KEYS[2], unpack(seqs))
`;

export function createReadStream(redis: Redis, keys: RedisKeys): ReadStream {
  const script = defineScript(redis, 'wasiAppReadStream', READ_STREAM_LUA);
  return async function readStream(streamId, options) {
    checkName('stream id', streamId);
    checkLimit(options.limit);
    if (options.direction !== 'forward' && options.direction !== 'backward') throw StorageFailure.invalid('unknown direction');
    const from = options.fromRevision === undefined ? '' : u64Arg('from-revision', options.fromRevision).toString();
    const events = toRecordedEvents(await script([keys.stream(streamId), keys.events, keys.streamBase(streamId)], [options.direction, from, options.limit]));
    return options.direction === 'forward' ? events : events.reverse();
  };
}
