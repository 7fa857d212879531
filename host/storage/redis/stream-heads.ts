/**
 * The response cache's validation read (../stream-heads.ts): one script, so one round trip and
 * one snapshot, for every stream. Per stream it returns the list length and the newest event's
 * record, from which the revision, sequence and time are taken (event-records.ts).
 */
import type { Redis } from 'ioredis';
import { checkName } from '../errors.ts';
import { NO_HEAD, type StreamHead } from '../stream-heads.ts';
import { toRecordedEvent } from './event-records.ts';
import type { RedisKeys } from './keys.ts';
import { defineScript } from './script.ts';
import { arrayReply, u64Reply } from './values.ts';

/** KEYS: events, then one stream key each. Returns {len, record or false} per stream. */
export const STREAM_HEADS_LUA = `
local out = {}
for i = 2, #KEYS do
  local len = redis.call('LLEN', KEYS[i])
  local record = false
  if len > 0 then record = redis.call('HGET', KEYS[1], redis.call('LINDEX', KEYS[i], -1)) end
  out[#out + 1] = len
  out[#out + 1] = record
end
return out
`;

export function createStreamHeads(redis: Redis, keys: RedisKeys): (streamIds: readonly string[]) => Promise<StreamHead[]> {
  const script = defineScript(redis, 'wasiAppStreamHeads', STREAM_HEADS_LUA);
  return async function streamHeads(streamIds) {
    for (const id of streamIds) checkName('stream id', id);
    if (streamIds.length === 0) return [];
    const reply = arrayReply(await script([keys.events, ...streamIds.map((id) => keys.stream(id))], []), 'stream heads');
    return streamIds.map((_, i) => {
      if (u64Reply(reply[2 * i], 'stream length') === 0n) return NO_HEAD;
      const event = toRecordedEvent(reply[2 * i + 1]);
      return { revision: event.revision, sequence: event.sequence, recordedAt: event.recordedAt };
    });
  };
}
