/**
 * stream-lease on Redis: a turn is the key `<prefix>lease:<stream>` holding its fencing token,
 * set only when absent, with the lease time as its expiry (SET NX PX, as in the Redis docs'
 * "Distributed locks" single-instance pattern), and the token from INCR on `<prefix>leasetoken:<stream>`
 * so tokens only grow. The lease's append is the append script told to check that the key still
 * holds this token (append.ts): once the key expired or another holder took it, nothing is written.
 *
 * The key holds `<token>:<nonce>`, the nonce being the caller's own random value: an acquire whose
 * reply never came (the command timed out, the connection dropped) may still have been granted,
 * and the caller then deletes the key only if it holds its nonce, instead of leaving the stream
 * locked until the lease time passes. The other scripts compare the whole value.
 *
 * Redis has no lock queue: a waiter retries every POLL_MS until the key is free or its wait is
 * over. Inside a host the in-process FIFO (host/app-platform/lease-imports.ts) lets only one waiter
 * per stream reach Redis, so the polling is one client per host at most. Between hosts, the first
 * waiter to find the lease taken marks itself next in line (`<prefix>leaseline:<stream>`, its
 * nonce, refreshed by each of its polls and expiring LINE_MS after its last): a free lease goes
 * to that waiter only, so the host that just released it cannot take it straight back while
 * another host waits. A waiter that stops polling (killed) holds the line for LINE_MS at most.
 */
import type { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { checkName } from '../errors.ts';
import type { RecordedEvent } from '../types.ts';
import type { HeldLease, StreamLeaseBackend } from '../../leases/port.ts';
import type { FencedAppend } from './append.ts';
import { toRecordedEvents } from './event-records.ts';
import type { RedisKeys } from './keys.ts';
import { defineScript } from './script.ts';
import { arrayReply, u64Reply } from './values.ts';

/** Pause between two tries while another host holds the turn. */
const POLL_MS = 2;

/** How long a waiter's place in line outlives its last poll: several polls, even on a loaded host. */
const LINE_MS = 50;

/**
 * KEYS: lease, token counter, stream, events, line. ARGV: ttl ms, tail events (0 = none), nonce, line ms.
 * Returns {token, newest records...} (the stream's newest events, oldest first) or {'busy', pttl}.
 */
const ACQUIRE_LUA = `
local line = redis.call('GET', KEYS[5])
if redis.call('EXISTS', KEYS[1]) == 1 then
  if not line or line == ARGV[3] then redis.call('SET', KEYS[5], ARGV[3], 'PX', ARGV[4]) end
  return {'busy', redis.call('PTTL', KEYS[1])}
end
if line and line ~= ARGV[3] then return {'busy', redis.call('PTTL', KEYS[5])} end
if line then redis.call('DEL', KEYS[5]) end
local token = string.format('%.0f', redis.call('INCR', KEYS[2]))
redis.call('SET', KEYS[1], token .. ':' .. ARGV[3], 'PX', ARGV[1])
local out = {token}
local n = tonumber(ARGV[2])
if n > 0 then
  local seqs = redis.call('LRANGE', KEYS[3], -n, -1)
  if #seqs > 0 then
    local records = redis.call('HMGET', KEYS[4], unpack(seqs))
    for i = 1, #records do out[#out + 1] = records[i] end
  end
end
return out
`;

/** KEYS: lease. ARGV: nonce. Deletes the key only while it holds a token taken with this nonce. */
const ABANDON_LUA = `
local value = redis.call('GET', KEYS[1])
if value and string.sub(value, -#ARGV[1] - 1) == ':' .. ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

/** KEYS: lease. ARGV: value. Deletes the key only while it still holds this lease's value. */
const RELEASE_LUA = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

/** KEYS: lease. ARGV: value, ttl ms. Extends the key's expiry only while it still holds this lease's value. */
const RENEW_LUA = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
`;

export function createLeases(redis: Redis, keys: RedisKeys, append: FencedAppend, ttlMs: number): StreamLeaseBackend {
  const acquireScript = defineScript(redis, 'wasiAppLeaseAcquire', ACQUIRE_LUA);
  const releaseScript = defineScript(redis, 'wasiAppLeaseRelease', RELEASE_LUA);
  const renewScript = defineScript(redis, 'wasiAppLeaseRenew', RENEW_LUA);
  const abandonScript = defineScript(redis, 'wasiAppLeaseAbandon', ABANDON_LUA);

  return {
    ttlMs,
    async acquire(streamId, waitMs, tailEvents) {
      checkName('stream id', streamId);
      const key = keys.lease(streamId);
      const deadline = performance.now() + waitMs;
      const scriptKeys = [key, keys.leaseToken(streamId), keys.stream(streamId), keys.events, keys.leaseLine(streamId)];
      const nonce = randomBytes(12).toString('hex');
      for (;;) {
        let reply: unknown[];
        try {
          reply = arrayReply(await acquireScript(scriptKeys, [ttlMs, tailEvents ?? 0, nonce, LINE_MS]), 'lease reply');
        } catch (error) {
          // Best effort: the script may have run although its reply was lost.
          abandonScript([key], [nonce]).catch(() => {});
          throw error;
        }
        if (reply[0] !== 'busy') {
          const token = u64Reply(reply[0], 'lease token');
          const tail = tailEvents === undefined ? undefined : toRecordedEvents(reply.slice(1)).reverse();
          return redisLease(streamId, key, token, `${token}:${nonce}`, tail);
        }
        const left = deadline - performance.now();
        if (left <= 0) return undefined;
        await sleep(Math.min(left, POLL_MS + Math.random() * POLL_MS));
      }
    },
  };

  /** `value` is what the key holds while this lease is current (token and nonce). */
  function redisLease(streamId: string, key: string, token: bigint, value: string, tail: RecordedEvent[] | undefined): HeldLease {
    let released = false;
    return {
      token,
      reusable: true,
      ...(tail === undefined ? {} : { tail }),
      append(expected, events, options) {
        const release = options?.release === true;
        if (release) released = true; // the script deletes the key (or finds it gone)
        return append(streamId, expected, events, { key, value, release });
      },
      async release() {
        if (released) return;
        released = true;
        // Best effort: a lease that cannot be deleted expires on its own.
        await releaseScript([key], [value]).catch(() => {});
      },
      async renew() {
        if (released) return false;
        return (await renewScript([key], [value, ttlMs])) === 1;
      },
    };
  }
}
