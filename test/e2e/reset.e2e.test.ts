/**
 * `npm run reset` (scripts/reset.ts) as a real process against real stores: SQLite files, a
 * random PostgreSQL schema, a random Redis prefix. It wipes this deployment's data and nothing
 * else (other tables in the file or schema, another deployment's schema or prefix, other keys),
 * asks on a terminal, and refuses without a terminal unless given --yes.
 */
import { spawn } from 'node:child_process';
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgresStorage } from '../../host/storage/postgres/index.ts';
import { openRedisStorage } from '../../host/storage/redis/index.ts';
import { openSqliteStorage } from '../../host/storage/sqlite/index.ts';
import type { StorageBackend } from '../../host/storage/types.ts';
import { ROOT, tempDataDir } from '../../harness/host-process.ts';
import { inCi, isolation, POSTGRES_URL, REDIS_URL, sharedServers } from '../../harness/servers.ts';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the reset script with a clean environment for its options; `input` is written to stdin. */
function runReset(args: string[], options: { input?: string; tty?: boolean } = {}): Promise<Run> {
  const command = [process.execPath, join(ROOT, 'scripts', 'reset.ts'), ...args];
  // `script` gives the child a pseudo-terminal, as an operator's shell would.
  const [file, argv] = options.tty ? ['script', ['-qec', command.map((part) => `'${part.replaceAll("'", "'\\''")}'`).join(' '), '/dev/null']] : [command[0]!, command.slice(1)];
  const env = { ...process.env };
  for (const name of ['DB', 'DATA_DIR', 'POSTGRES_URL', 'POSTGRES_SCHEMA', 'REDIS_URL', 'REDIS_PREFIX']) delete env[name];
  return new Promise((resolve) => {
    const child = spawn(file, argv, { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
    if (options.input !== undefined) child.stdin.write(options.input);
    // With a terminal, stdin stays open until the prompt was answered (EOF would end `script`).
    if (!options.tty) child.stdin.end();
    else child.stdout.once('data', () => setTimeout(() => child.stdin.end(), 500));
  });
}

const event = (eventType: string) => ({ eventType, payload: '{}', metadata: '{}' });

async function seed(storage: StorageBackend): Promise<void> {
  await storage.events.append('counter-global', { tag: 'no-stream' }, [event('incremented'), event('incremented')]);
  await storage.keyValue.set('ns', 'k', 'v', undefined);
  await storage.projections.commit('counter', 0n, 2n, [{ tag: 'put', val: { collection: 'views', id: 'global', body: '{}' } }]);
}

async function expectEmpty(storage: StorageBackend): Promise<void> {
  expect(await storage.events.headSequence()).toBe(0n);
  expect(await storage.keyValue.get('ns', 'k')).toBeUndefined();
  expect(await storage.projections.checkpoint('counter')).toBe(0n);
  // Sequences start again at 1.
  expect((await storage.events.append('counter-global', { tag: 'no-stream' }, [event('incremented')]))[0]?.sequence).toBe(1n);
}

async function expectSeeded(storage: StorageBackend): Promise<void> {
  expect(await storage.events.headSequence()).toBe(2n);
  expect(await storage.keyValue.get('ns', 'k')).toBe('v');
}

describe('npm run reset: SQLite', () => {
  function seededFile() {
    const dataDir = tempDataDir('reset-');
    const path = join(dataDir, 'app.sqlite');
    const storage = openSqliteStorage({ path });
    return { dataDir, path, storage };
  }

  it('with --yes empties the app_ tables and leaves other tables of the file alone', async () => {
    const { dataDir, path, storage } = seededFile();
    await seed(storage);
    storage.close();
    const foreign = new DatabaseSync(path);
    foreign.exec("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('keep me')");
    foreign.close();

    const run = await runReset(['--db', 'sqlite', '--data-dir', dataDir, '--yes']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(path);

    const after = openSqliteStorage({ path });
    try {
      await expectEmpty(after);
    } finally {
      after.close();
    }
    const check = new DatabaseSync(path);
    expect(check.prepare('SELECT text FROM notes').all()).toEqual([{ text: 'keep me' }]);
    check.close();
  });

  it('refuses without a terminal and without --yes, and deletes nothing', async () => {
    const { dataDir, path, storage } = seededFile();
    await seed(storage);
    storage.close();
    const run = await runReset(['--db', 'sqlite', '--data-dir', dataDir]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/not a terminal; pass --yes/);
    const after = openSqliteStorage({ path });
    await expectSeeded(after);
    after.close();
  });

  it.runIf(process.platform === 'linux')('asks on a terminal: "no" keeps the data, "yes" deletes it', async () => {
    const { dataDir, path, storage } = seededFile();
    await seed(storage);
    storage.close();

    const declined = await runReset(['--db', 'sqlite', '--data-dir', dataDir], { tty: true, input: 'no\n' });
    expect(declined.stdout).toMatch(/Type "yes" to continue/);
    expect(declined.stdout).toMatch(/cancelled; nothing was deleted/);
    const kept = openSqliteStorage({ path });
    await expectSeeded(kept);
    kept.close();

    const accepted = await runReset(['--db', 'sqlite', '--data-dir', dataDir], { tty: true, input: 'yes\n' });
    expect(accepted.stdout).toMatch(/reset: deleted/);
    const wiped = openSqliteStorage({ path });
    await expectEmpty(wiped);
    wiped.close();
  });

  it('rejects an invalid option with exit code 2, naming the flag', async () => {
    const run = await runReset(['--db', 'mysql', '--yes']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--db \(DB\)/);
  });
});

const unavailable = await sharedServers();
const servers = isolation('reset');
afterAll(() => servers.cleanup());

if (unavailable !== undefined && inCi) {
  it('needs PostgreSQL and Redis under CI', () => expect.fail(unavailable));
}

describe.runIf(unavailable === undefined)('npm run reset: PostgreSQL and Redis', () => {
  it('PostgreSQL: empties only the app_ tables of the given schema', async () => {
    const mine = servers.schema();
    const other = servers.schema(); // another deployment on the same database
    const storage = await openPostgresStorage({ url: POSTGRES_URL, schema: mine });
    const neighbour = await openPostgresStorage({ url: POSTGRES_URL, schema: other });
    try {
      await seed(storage);
      await seed(neighbour);
      await servers.pg().query(`CREATE TABLE "${mine}".notes (text text); INSERT INTO "${mine}".notes VALUES ('keep me')`);

      const run = await runReset(['--db', 'postgres', '--postgres-url', POSTGRES_URL, '--postgres-schema', mine, '-y']);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain(`schema "${mine}"`);
      expect(run.stdout).not.toMatch(/password/i);

      await expectEmpty(storage);
      await expectSeeded(neighbour);
      const { rows } = await servers.pg().query(`SELECT text FROM "${mine}".notes`);
      expect(rows).toEqual([{ text: 'keep me' }]);
    } finally {
      await storage.close();
      await neighbour.close();
    }
  });

  it('PostgreSQL: a schema that does not exist is left uncreated', async () => {
    const absent = servers.schema();
    const run = await runReset(['--db', 'postgres', '--postgres-url', POSTGRES_URL, '--postgres-schema', absent, '--yes']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/nothing to reset/);
    const { rowCount } = await servers.pg().query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [absent]);
    expect(rowCount).toBe(0);
  });

  it('Redis: deletes only the keys under the given prefix', async () => {
    const mine = servers.prefix();
    const other = servers.prefix();
    const storage = await openRedisStorage({ url: REDIS_URL, prefix: mine });
    const neighbour = await openRedisStorage({ url: REDIS_URL, prefix: other });
    // A key that merely looks similar: the prefix without its trailing colon.
    const lookalike = `${mine.slice(0, -1)}-outside`;
    try {
      await seed(storage);
      await seed(neighbour);
      await servers.redis().set(lookalike, 'keep me');

      const run = await runReset(['--db', 'redis', '--redis-url', REDIS_URL, '--redis-prefix', mine, '--yes']);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain(`"${mine}"`);

      await expectEmpty(storage);
      await expectSeeded(neighbour);
      expect(await servers.redis().get(lookalike)).toBe('keep me');
    } finally {
      await servers.redis().del(lookalike);
      await storage.close();
      await neighbour.close();
    }
  });
});
