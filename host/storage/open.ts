/** Opens the storage backend the configuration names. */
import { join } from 'node:path';
import type { HostConfig } from '../config.ts';
import { openSqliteStorage } from './sqlite/index.ts';
import type { StorageBackend } from './types.ts';

export async function openStorage(config: HostConfig): Promise<StorageBackend> {
  switch (config.db) {
    case 'sqlite':
      return openSqliteStorage({ path: join(config.dataDir, 'app.sqlite') });
    case 'postgres':
    case 'redis':
      throw new Error(`--db ${config.db} is not available in this build`);
  }
}
