/**
 * event-store.stream-revision: the length of the stream's list of sequences plus its base (the
 * revisions truncated before them, keys.ts), 0 when absent; one script, so one snapshot.
 */
import type { Redis } from 'ioredis';
import { checkName } from '../errors.ts';
import type { RedisKeys } from './keys.ts';
import { defineScript } from './script.ts';
import { u64Reply } from './values.ts';

/** KEYS: stream, stream base. */
export const STREAM_REVISION_LUA = `
return string.format('%.0f', redis.call('LLEN', KEYS[1]) + tonumber(redis.call('GET', KEYS[2]) or '0'))
`;

export function createStreamRevision(redis: Redis, keys: RedisKeys): (streamId: string) => Promise<bigint> {
  const script = defineScript(redis, 'wasiAppStreamRevision', STREAM_REVISION_LUA);
  return async function streamRevision(streamId) {
    checkName('stream id', streamId);
    return u64Reply(await script([keys.stream(streamId), keys.streamBase(streamId)], []), 'stream revision');
  };
}
