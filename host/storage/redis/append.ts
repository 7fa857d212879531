/**
 * event-store.append: one Lua script checks the expected revision and writes the whole batch,
 * atomically (Redis runs a script with nothing interleaved), so the check and the writes see
 * the same stream state and two racing writers cannot both win. All or nothing: the script
 * checks everything before its first write.
 *
 * For each event it assigns the next global sequence (INCRBY on `<prefix>seq`, only after the
 * check passed, so a conflict leaves no gap), stores the record, pushes the sequence on the
 * stream's list (revision = position), adds it to the global index and counts its type.
 * recorded-at comes from the Redis server clock (TIME), so every host agrees on it.
 */
import type { Redis } from 'ioredis';
import { revisionMatches } from '../../../src/contract/revision.ts';
import { checkName, StorageFailure } from '../errors.ts';
import type { AsyncEventStore, ExpectedRevision, NewEvent, RecordedEvent } from '../types.ts';
import { eventBody } from './event-records.ts';
import type { RedisKeys } from './keys.ts';
import { checkExpected, EXPECTATION_LUA, expectationArgs } from './expectation.ts';
import { defineScript, INVALID_REPLY } from './script.ts';
import { arrayReply, stringReply, u64Reply } from './values.ts';

export type Append = AsyncEventStore['append'];

/**
 * KEYS: seq, events, stream, all, types, stream base [, lease]
 * ARGV: expected tag, exact revision (decimal, '' unless exact), n, then type and body per event
 *       [, the lease key's value (fencing token and nonce, leases.ts), '1' to end the lease with this append or '0']
 * Returns {'lease'} (a lease was named and its key no longer holds that value: expired or taken
 * over, so nothing is written), {'conflict', actual} or {'ok', first sequence, revision before, recorded-at}.
 */
export const APPEND_LUA = `
if KEYS[7] then
  if redis.call('GET', KEYS[7]) ~= ARGV[#ARGV - 1] then return {'lease'} end
  -- The holder's last append ends its lease in the same round trip, written or not.
  if ARGV[#ARGV] == '1' then redis.call('DEL', KEYS[7]) end
end
local actual = redis.call('LLEN', KEYS[3]) + tonumber(redis.call('GET', KEYS[6]) or '0')
${EXPECTATION_LUA}

local n = tonumber(ARGV[3])
local head = tonumber(redis.call('GET', KEYS[1]) or '0')
if head + n > 9007199254740991 then
  return redis.error_reply('${INVALID_REPLY} the global sequence would pass 2^53')
end
local last = redis.call('INCRBY', KEYS[1], n)
local first = last - n + 1
local time = redis.call('TIME')
local at = string.format('%.0f', tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000))

local pushed = {}
for i = 0, n - 1 do
  local seq = string.format('%.0f', first + i)
  local rev = string.format('%.0f', actual + i + 1)
  redis.call('HSET', KEYS[2], seq, '["' .. seq .. '","' .. rev .. '","' .. at .. '",' .. ARGV[5 + 2 * i] .. ']')
  redis.call('ZADD', KEYS[4], seq, seq)
  redis.call('HINCRBY', KEYS[5], ARGV[4 + 2 * i], 1)
  pushed[#pushed + 1] = seq
  -- unpack() is bounded by the Lua C stack: push in chunks
  if #pushed == 500 then
    redis.call('RPUSH', KEYS[3], unpack(pushed))
    pushed = {}
  end
end
if #pushed > 0 then redis.call('RPUSH', KEYS[3], unpack(pushed)) end
return {'ok', string.format('%.0f', first), string.format('%.0f', actual), at}
`;

/** append, or with `lease` the fenced append of a stream-lease holder (leases.ts), which `release` ends. */
export type FencedAppend = (streamId: string, expected: ExpectedRevision, events: NewEvent[], lease?: { key: string; value: string; release: boolean }) => Promise<RecordedEvent[]>;

export function createAppend(redis: Redis, keys: RedisKeys, streamRevision: (streamId: string) => Promise<bigint>): FencedAppend {
  const script = defineScript(redis, 'wasiAppAppend', APPEND_LUA);

  return async function append(streamId, expected, events, lease) {
    checkName('stream id', streamId);
    checkExpected(expected);
    for (const event of events) checkName('event type', event.eventType);

    if (events.length === 0 && lease === undefined) {
      // Nothing to write: only the expectation is checked.
      const actual = await streamRevision(streamId);
      if (!revisionMatches(expected, actual)) throw StorageFailure.conflict(streamId, expected, actual);
      return [];
    }

    const args: string[] = [...expectationArgs(expected), String(events.length)];
    for (const event of events) args.push(event.eventType, eventBody(streamId, event));
    const scriptKeys = [keys.sequence, keys.events, keys.stream(streamId), keys.all, keys.types, keys.streamBase(streamId)];
    if (lease) {
      scriptKeys.push(lease.key);
      args.push(lease.value, lease.release ? '1' : '0');
    }
    const reply = arrayReply(await script(scriptKeys, args), 'append reply');
    if (reply[0] === 'lease') throw StorageFailure.unavailable('the stream lease has ended');

    if (reply[0] === 'conflict') throw StorageFailure.conflict(streamId, expected, u64Reply(reply[1], 'revision'));
    if (reply[0] !== 'ok') throw StorageFailure.internal(`redis: unexpected append reply ${String(reply[0])}`);
    const first = u64Reply(reply[1], 'sequence');
    const before = u64Reply(reply[2], 'revision');
    const recordedAt = u64Reply(stringReply(reply[3], 'recorded-at'), 'recorded-at');
    return events.map(
      (event, index): RecordedEvent => ({
        sequence: first + BigInt(index),
        streamId,
        revision: before + BigInt(index + 1),
        eventType: event.eventType,
        payload: event.payload,
        metadata: event.metadata,
        recordedAt,
      }),
    );
  };
}
