/**
 * The Redis storage backend: events, projections and key-value under one key prefix on one
 * connection, with every multi-key change done by a single Lua script (atomic on the server).
 * Every method returns a Promise; failures are StorageFailures (see errors.ts for the mapping).
 * The connection fails fast while Redis is down (`unavailable`) and reconnects by itself.
 */
import type { Redis } from 'ioredis';
import { StorageFailure } from '../errors.ts';
import type { AsyncEventStore, AsyncStorageBackend } from '../types.ts';
import { DEFAULT_LEASE_TTL_MS } from '../../leases/port.ts';
import { createLeases } from './leases.ts';
import { createAppend } from './append.ts';
import { closeClient, connectClient, createRedisClient, describeUrl, type RedisConnectionOptions } from './connection.ts';
import { createCountByType } from './count-by-type.ts';
import { guardAll, toStorageFailure } from './errors.ts';
import { createHeadSequence } from './head-sequence.ts';
import { redisKeys } from './keys.ts';
import { createKeyValue } from './key-value.ts';
import { migrate } from './migrations.ts';
import { createProjections } from './projections.ts';
import { createReadAll } from './read-all.ts';
import { createReadStream } from './read-stream.ts';
import { createRemoveStream } from './remove-stream.ts';
import { createTruncateBefore } from './truncate-before.ts';
import { createReset } from './reset.ts';
import { createStreamRevision } from './stream-revision.ts';
import { createStreamHeads } from './stream-heads.ts';

export { SCHEMA_VERSION, MIGRATIONS, type Migration } from './migrations.ts';
export { deletePrefixed } from './reset.ts';
export { redisKeys, type RedisKeys } from './keys.ts';
export { toStorageFailure } from './errors.ts';
export type { RedisConnectionOptions } from './connection.ts';

export interface RedisStorageOptions extends RedisConnectionOptions {
  /** redis://[user:password@]host:port[/db] or rediss:// for TLS. */
  url: string;
  /** Prepended to every key (e.g. 'wasi-app:'); must not be empty. */
  prefix: string;
  /** How long a stream lease lasts when its holder stalls (ms). Default 5000. */
  leaseTtlMs?: number;
}

export interface RedisStorage extends AsyncStorageBackend {
  readonly prefix: string;
  /** The underlying connection, for inspection (status) and tests. */
  readonly client: Redis;
}

/** Connects to Redis, migrates the key layout under `options.prefix` and returns the backend. */
export async function openRedisStorage(options: RedisStorageOptions): Promise<RedisStorage> {
  const keys = redisKeys(options.prefix);
  const client = createRedisClient(options.url, options);
  try {
    await connectClient(client);
  } catch (error) {
    const failure = toStorageFailure(error);
    const where = `cannot connect to ${describeUrl(options.url)}`;
    throw failure.payload.tag === 'unavailable' ? StorageFailure.unavailable(`${where}: ${failure.payload.val}`) : failure;
  }
  try {
    await migrate(client, keys);
  } catch (error) {
    client.disconnect();
    throw toStorageFailure(error);
  }

  const streamRevision = createStreamRevision(client, keys);
  const append = createAppend(client, keys, streamRevision);
  const events: AsyncEventStore = guardAll({
    append,
    readStream: createReadStream(client, keys),
    streamRevision,
    readAll: createReadAll(client, keys),
    headSequence: createHeadSequence(client, keys),
    countByType: createCountByType(client, keys),
    removeStream: createRemoveStream(client, keys),
    truncateBefore: createTruncateBefore(client, keys),
  });
  const lifecycle = guardAll({
    reset: createReset(client, keys),
    // Idempotent: a host shutting down may close twice. Afterwards every call fails unavailable.
    close: () => closeClient(client),
  });

  return {
    name: 'redis',
    prefix: keys.prefix,
    client,
    events,
    projections: guardAll(createProjections(client, keys)),
    keyValue: guardAll(createKeyValue(client, keys)),
    streamHeads: guardAll({ streamHeads: createStreamHeads(client, keys) }).streamHeads,
    leases: guardAll(createLeases(client, keys, guardAll({ append }).append, options.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS)),
    reset: lifecycle.reset,
    close: lifecycle.close,
  };
}
