/**
 * Versioned key layout. `<prefix>schema_version` holds the version the data under the prefix is
 * at; migrations run in order at open, each in one Lua script that re-checks the version first
 * (two hosts opening at once apply each migration once) and sets it last. Never edit a released
 * migration: append a new one (version 2, 3, ...). Version 1 is the layout keys.ts describes;
 * Redis creates keys on first write, so it has nothing to create.
 */
import type { Redis } from 'ioredis';
import { StorageFailure } from '../errors.ts';
import type { RedisKeys } from './keys.ts';

export interface Migration {
  readonly version: number;
  readonly name: string;
  /** Lua run with ARGV[1] = the key prefix, before the version is recorded. */
  readonly lua: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'events, projections, key-value (layout in keys.ts)',
    lua: '',
  },
  {
    version: 2,
    name: 'truncated streams: <prefix>base:<stream id> (keys.ts); an older build would misread their revisions',
    lua: '',
  },
];

/** The newest schema version this build knows. */
export const SCHEMA_VERSION = MIGRATIONS.reduce((max, m) => Math.max(max, m.version), 0);

/** KEYS: schema_version. ARGV: prefix, target version. Returns the version afterwards. */
function migrationScript(migration: Migration): string {
  return `
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
if current >= tonumber(ARGV[2]) then return current end
if current ~= tonumber(ARGV[2]) - 1 then return redis.error_reply('ERR schema version ' .. current .. ' cannot move to ' .. ARGV[2]) end
${migration.lua}
redis.call('SET', KEYS[1], ARGV[2])
return tonumber(ARGV[2])
`;
}

/** The version the data is at (0 = nothing migrated yet). */
export async function schemaVersion(redis: Redis, keys: RedisKeys): Promise<number> {
  const stored = await redis.get(keys.schemaVersion);
  if (stored === null) return 0;
  if (!/^\d+$/.test(stored)) throw StorageFailure.internal(`redis: ${keys.schemaVersion} is not a version number`);
  return Number(stored);
}

/** Brings the data under the prefix to SCHEMA_VERSION; returns the version it is at afterwards. */
export async function migrate(redis: Redis, keys: RedisKeys): Promise<number> {
  const current = await schemaVersion(redis, keys);
  if (current > SCHEMA_VERSION) {
    // A newer build migrated these keys; running old code on them could corrupt data.
    throw StorageFailure.internal(`redis schema version ${current} is newer than this build (${SCHEMA_VERSION})`);
  }
  const pending = [...MIGRATIONS].filter((m) => m.version > current).sort((a, b) => a.version - b.version);
  let version = current;
  for (const migration of pending) {
    const reply = await redis.eval(migrationScript(migration), 1, keys.schemaVersion, keys.prefix, String(migration.version));
    version = Number(reply);
  }
  return version;
}
