/**
 * `npm run reset -- --db <sqlite|postgres|redis> [--yes]`: deletes this project's data, and
 * nothing else, from the store the host would use with the same flags and environment
 * (`--data-dir`, `--postgres-url`, `--postgres-schema`, `--redis-url`, `--redis-prefix`, `.env`).
 *
 * - SQLite: empties every `app_` table of `<data-dir>/app.sqlite` (other tables stay).
 * - PostgreSQL: empties every `app_` table of the schema (other tables and schemas stay).
 * - Redis: deletes every key under the prefix (other keys stay).
 * Each uses the backend's own `reset()`. The layout (schema version) is kept.
 *
 * On a terminal it asks for confirmation; `--yes` asks nothing. Without a terminal and without
 * `--yes` it refuses. Exit codes: 0 done (or nothing to reset), 1 failed or declined,
 * 2 invalid options or confirmation needed.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline/promises';
import pg from 'pg';
import { ConfigError, loadConfig, serverUrl, type HostConfig } from '../host/config.ts';
import { commandName, optionLines } from '../host/help.ts';
import { loadDotEnv } from '../host/dotenv.ts';
import { describeError, jsonLogger } from '../host/log.ts';
import { openStorage } from '../host/storage/open.ts';
import { withDefaultUser } from '../host/storage/postgres/connection.ts';
import { describeUrl } from '../host/storage/redis/connection.ts';

const YES_FLAGS = new Set(['--yes', '-y']);

function fail(code: number, message: string): never {
  process.stderr.write(`reset: ${message}\n`);
  process.exit(code);
}

/** What will be wiped, in words (URLs without credentials). */
function describeTarget(config: HostConfig): string {
  switch (config.db) {
    case 'sqlite':
      return `every app_ table in the SQLite database ${join(config.dataDir, 'app.sqlite')}`;
    case 'postgres':
      return `every app_ table in PostgreSQL schema "${config.postgresSchema}" at ${describeUrl(serverUrl(config, 'postgres'))}`;
    case 'redis':
      return `every Redis key starting with "${config.redisPrefix}" at ${describeUrl(serverUrl(config, 'redis'))}`;
  }
}

/** False when there is nothing to reset (no SQLite file, no PostgreSQL schema): opening would create it. */
async function storeExists(config: HostConfig): Promise<boolean> {
  if (config.db === 'sqlite') return existsSync(join(config.dataDir, 'app.sqlite'));
  if (config.db === 'redis') return true;
  const client = new pg.Client({ connectionString: withDefaultUser(serverUrl(config, 'postgres')), connectionTimeoutMillis: 5000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const { rowCount } = await client.query('SELECT 1 FROM pg_catalog.pg_namespace WHERE nspname = $1', [config.postgresSchema]);
    return (rowCount ?? 0) > 0;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function confirm(target: string): Promise<boolean> {
  const prompt = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = await prompt.question(`This deletes ${target}.\nType "yes" to continue: `);
    return ['yes', 'y'].includes(answer.trim().toLowerCase());
  } finally {
    prompt.close();
  }
}

const argv = process.argv.slice(2);
if (argv.includes('--help') || argv.includes('-h')) {
  console.log(
    [
      `Usage: ${commandName(process.env, 'scripts/reset.ts')} --db <sqlite|postgres|redis> [--yes] [host options]`,
      '',
      'The storage options of the host (the others are accepted and ignored):',
      ...optionLines(),
    ].join('\n'),
  );
  process.exit(0);
}
const yes = argv.some((arg) => YES_FLAGS.has(arg));
loadDotEnv();
let config: HostConfig;
try {
  config = loadConfig(
    argv.filter((arg) => !YES_FLAGS.has(arg)),
    process.env,
  );
} catch (error) {
  if (error instanceof ConfigError) fail(2, error.message);
  throw error;
}

const target = describeTarget(config);
if (!yes) {
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    fail(2, `refusing to delete ${target} without confirmation: not a terminal; pass --yes to reset non-interactively`);
  }
  if (!(await confirm(target))) fail(1, 'cancelled; nothing was deleted');
}

try {
  if (!(await storeExists(config))) {
    console.log(`reset: nothing to reset (${target}: the store does not exist)`);
    process.exit(0);
  }
  // Storage warnings go to stderr as JSON lines, like the host's logs.
  const storage = await openStorage(
    config,
    jsonLogger((line) => process.stderr.write(line)),
  );
  try {
    await storage.reset();
  } finally {
    await storage.close();
  }
  console.log(`reset: deleted ${target}`);
} catch (error) {
  fail(1, `failed: ${describeError(error)}`);
}
