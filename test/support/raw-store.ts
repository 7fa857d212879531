/**
 * What someone who can read a store gets, as one text to search: every byte of every file under
 * a data directory (SQLite's database, -wal and -shm files, the file store), every row of a
 * PostgreSQL schema, every key and value under a Redis prefix. The at-rest suites look in it for
 * secrets and erased personal data the way an attacker with the files would.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';
import type { Redis } from 'ioredis';

/** Undefined when the file went away meanwhile (a live store renames and removes files as it works). */
function unlessGone<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Every file under `dir` (recursively), with its path relative to `dir`. */
export function filesUnder(dir: string, under = ''): string[] {
  return (unlessGone(() => readdirSync(join(dir, under))) ?? []).flatMap((name) => {
    const path = join(under, name);
    const stat = unlessGone(() => statSync(join(dir, path)));
    if (stat === undefined) return [];
    return stat.isDirectory() ? filesUnder(dir, path) : [path];
  });
}

/** The bytes of every file under `dir` as latin1 text (each byte one character), with the file names. */
export function rawFiles(dir: string): string {
  return filesUnder(dir)
    .map((path) => `${path}\n${unlessGone(() => readFileSync(join(dir, path)).toString('latin1')) ?? ''}`)
    .join('\n');
}

/** Every row of every table in `schema`, as JSON. */
export async function postgresRows(pool: pg.Pool, schema: string): Promise<string> {
  const { rows } = await pool.query<{ tablename: string }>('SELECT tablename FROM pg_tables WHERE schemaname = $1', [schema]);
  const out: string[] = [];
  for (const { tablename } of rows) out.push(JSON.stringify((await pool.query(`SELECT * FROM "${schema}"."${tablename}"`)).rows));
  return out.join('\n');
}

/** Every key under `prefix` with its value, whatever its type. */
export async function redisEntries(client: Redis, prefix: string): Promise<string> {
  const out: string[] = [];
  for (const key of await client.keys(`${prefix}*`)) {
    out.push(key);
    const type = await client.type(key);
    if (type === 'string') out.push((await client.get(key)) ?? '');
    else if (type === 'hash') out.push(JSON.stringify(await client.hgetall(key)));
    else if (type === 'list') out.push(JSON.stringify(await client.lrange(key, 0, -1)));
    else if (type === 'set') out.push(JSON.stringify(await client.smembers(key)));
    else if (type === 'zset') out.push(JSON.stringify(await client.zrange(key, '0', '-1', 'WITHSCORES')));
    else if (type === 'stream') out.push(JSON.stringify(await client.xrange(key, '-', '+')));
  }
  return out.join('\n');
}
