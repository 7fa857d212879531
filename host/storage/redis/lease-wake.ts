/**
 * Waiting for a Redis stream lease without polling: a host whose acquire found the lease taken
 * blocks on BLPOP of `<prefix>leasewake:<stream>` (on a connection of its own: a blocked
 * connection can send nothing else); whoever ends a lease pushes one wake-up there, which Redis
 * hands to the longest-blocked waiter, who then tries again. The list never holds more than one
 * wake-up (a spare one costs a waiter one needless retry) and expires when unused. A holder that
 * dies pushes nothing: waiters block at most until its lease would expire (the `busy` reply's
 * PTTL), at most MAX_BLOCK_MS, then try again.
 */
import type { Redis } from 'ioredis';

/** Longest one blocking wait lasts before the waiter tries the lease again. */
export const MAX_BLOCK_MS = 1_000;

/** Lua that pushes one wake-up onto the list key `key` (a Lua expression). */
export const WAKE_LUA = (key: string): string => `redis.call('LPUSH', ${key}, 1) redis.call('LTRIM', ${key}, 0, 0) redis.call('PEXPIRE', ${key}, 60000)`;

export interface LeaseWaiters {
  /** Blocks until a wake-up on `wakeKey` or `ms` passed; never throws (a failed wait just ends). */
  wait(wakeKey: string, ms: number): Promise<void>;
  close(): void;
}

export function leaseWaiters(redis: Redis): LeaseWaiters {
  const idle: Redis[] = [];
  const all = new Set<Redis>();
  let closed = false;

  function connection(): Redis {
    const reused = idle.pop();
    if (reused !== undefined) return reused;
    // No command timeout for BLPOP's own wait; the client-side guard is its timeout plus a grace.
    const made = redis.duplicate({ commandTimeout: undefined, blockingTimeout: 1, blockingTimeoutGrace: 5_000 });
    made.on('error', () => {}); // a failed wait is retried by polling once; the main client reports errors
    all.add(made);
    return made;
  }

  return {
    async wait(wakeKey, ms) {
      if (closed) return;
      const blocker = connection();
      try {
        // Seconds with decimals (Redis ≥ 6); 0 would block forever.
        await blocker.blpop(wakeKey, Math.max(0.005, Math.min(ms, MAX_BLOCK_MS) / 1000).toFixed(3));
        if (!closed) idle.push(blocker);
      } catch {
        all.delete(blocker);
        blocker.disconnect();
      }
    },
    close() {
      closed = true;
      for (const blocker of all) blocker.disconnect();
      all.clear();
      idle.length = 0;
    },
  };
}
