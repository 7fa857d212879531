/** event-store.head-sequence: the last sequence INCRBY assigned, 0 when the store is empty. */
import type { Redis } from 'ioredis';
import type { RedisKeys } from './keys.ts';
import { u64Reply } from './values.ts';

export function createHeadSequence(redis: Redis, keys: RedisKeys): () => Promise<bigint> {
  return async function headSequence() {
    const head = await redis.get(keys.sequence);
    // The append script only increments after its checks pass, so there are no gaps to skip.
    return head === null ? 0n : u64Reply(head, 'head sequence');
  };
}
