/** event-store.stream-revision: the length of the stream's list of sequences, 0 when absent. */
import type { Redis } from 'ioredis';
import { checkName } from '../errors.ts';
import type { RedisKeys } from './keys.ts';
import { u64Reply } from './values.ts';

export function createStreamRevision(redis: Redis, keys: RedisKeys): (streamId: string) => Promise<bigint> {
  return async function streamRevision(streamId) {
    checkName('stream id', streamId);
    return u64Reply(await redis.llen(keys.stream(streamId)), 'stream revision');
  };
}
