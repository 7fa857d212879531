/** Opens the storage backend the configuration names. */
import { join } from 'node:path';
import { type HostConfig, serverUrl } from '../config.ts';
import { openSqliteStorage } from './sqlite/index.ts';
import { openPostgresStorage } from './postgres/index.ts';
import { openRedisStorage } from './redis/index.ts';
import { describeError, type HostLogger } from '../log.ts';
import type { StorageBackend } from './types.ts';

export async function openStorage(config: HostConfig, logger: HostLogger): Promise<StorageBackend> {
  switch (config.db) {
    case 'sqlite':
      return openSqliteStorage({ path: join(config.dataDir, 'app.sqlite') });
    case 'postgres':
      return openPostgresStorage({
        url: serverUrl(config, 'postgres'),
        schema: config.postgresSchema,
        onPoolError: (error: unknown) => logger.log('warn', 'a PostgreSQL connection failed', { code: 'store', error: describeError(error) }),
      });
    case 'redis':
      return openRedisStorage({
        url: serverUrl(config, 'redis'),
        prefix: config.redisPrefix,
        onError: (error: unknown) => logger.log('warn', 'a Redis connection failed', { code: 'store', error: describeError(error) }),
      });
  }
}
