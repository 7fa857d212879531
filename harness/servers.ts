/**
 * The shared PostgreSQL and Redis servers for end-to-end tests, with isolation: every test file
 * makes its own random schema, key prefix and channel, and removes only those afterwards.
 * `sharedServers()` says whether both answer; a file skips without them locally and fails under CI.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { Redis } from 'ioredis';
import { withDefaultUser } from '../host/storage/postgres/connection.ts';
import { deletePrefixed } from '../host/storage/redis/index.ts';

export const POSTGRES_URL = withDefaultUser(process.env['POSTGRES_URL'] ?? 'postgres://127.0.0.1:5432/test');
export const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
export { inCi } from './tools.ts';

async function postgresAnswers(): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 3000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (error) {
    return `PostgreSQL at ${POSTGRES_URL}: ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Undefined when Redis at `url` answers PING; else why not. */
export async function redisAnswers(url = REDIS_URL): Promise<string | undefined> {
  const probe = new Redis(url, { lazyConnect: true, connectTimeout: 3000, retryStrategy: () => null, maxRetriesPerRequest: 0 });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG' ? undefined : `Redis at ${url}: no PONG`;
  } catch (error) {
    return `Redis at ${url}: ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    probe.disconnect();
  }
}

/** Undefined when both servers answer; else why not. */
export async function sharedServers(): Promise<string | undefined> {
  const [postgres, redis] = await Promise.all([postgresAnswers(), redisAnswers()]);
  return postgres ?? redis;
}

/** A random token for schema names, key prefixes and channels. */
export const randomToken = () => randomBytes(6).toString('hex');

/** Schemas, prefixes and channels made by one test file, and their removal. */
export function isolation(label: string) {
  const schemas: string[] = [];
  const prefixes: string[] = [];
  let admin: pg.Pool | undefined;
  let redis: Redis | undefined;
  return {
    schema(): string {
      const name = `wasi_app_${label}_${randomToken()}`;
      schemas.push(name);
      return name;
    },
    prefix(): string {
      const prefix = `test:${label}:${randomToken()}:`;
      prefixes.push(prefix);
      return prefix;
    },
    channel: () => `test-${label}-${randomToken()}`,
    /** A pool on the shared database, for inspecting and planting rows in this file's schemas only. */
    pg(): pg.Pool {
      if (admin === undefined) {
        admin = new pg.Pool({ connectionString: POSTGRES_URL, max: 2 });
        admin.on('error', () => undefined);
      }
      return admin;
    },
    redis(): Redis {
      if (redis === undefined) {
        redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
        redis.on('error', () => undefined);
      }
      return redis;
    },
    async cleanup(): Promise<void> {
      if (schemas.length > 0) {
        const pool = this.pg();
        for (const schema of schemas.splice(0)) await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      }
      if (prefixes.length > 0) {
        const client = this.redis();
        for (const prefix of prefixes.splice(0)) await deletePrefixed(client, prefix);
      }
      await admin?.end();
      admin = undefined;
      redis?.disconnect();
      redis = undefined;
    },
  };
}
