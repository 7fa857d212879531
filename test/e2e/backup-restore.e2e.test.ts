/**
 * `npm run backup` and `npm run restore` (scripts/backup.ts, scripts/restore.ts) as real processes
 * against real hosts on SQLite: a backup taken while 8 clients keep writing holds every increment
 * acknowledged before it started, with a gap-free event chain, and a host serves it after a
 * restore into a fresh directory; a restore into the directory of a running host, or of a file
 * that is not this project's database, is refused and changes nothing.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { openSqliteStorage } from '../../host/storage/sqlite/index.ts';
import { COUNTER_STREAM_ID } from '../../src/counter/domain/counter.ts';
import { ROOT, startHost, tempDataDir } from '../../harness/host-process.ts';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `scripts/<name>.ts` to completion, with no DATA_DIR from the test's environment. */
function runScript(name: 'backup' | 'restore', args: string[]): Promise<Run> {
  const env = { ...process.env };
  delete env['DATA_DIR'];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'scripts', `${name}.ts`), ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function increment(url: string): Promise<number> {
  const response = await fetch(`${url}/api/counter/increment`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"amount":1}' });
  expect(response.status).toBe(200);
  return ((await response.json()) as { count: number }).count;
}

/**
 * An increment on a connection of its own (`Connection: close`), for the 8 writers: the backup is
 * taken beside new connections too. At load 20+ the host reset some of them (ECONNRESET) before
 * the fix in host/http/connection-route.ts: its timer for a connection's first bytes fired before
 * the event loop read the bytes that had arrived while it was held.
 */
function incrementAlone(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${url}/api/counter/increment`, { method: 'POST', agent: false, headers: { 'content-type': 'application/json' } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => (response.statusCode === 200 ? resolve((JSON.parse(body) as { count: number }).count) : reject(new Error(`${response.statusCode}: ${body}`))));
    });
    request.on('error', reject);
    request.end('{"amount":1}');
  });
}

async function view(url: string): Promise<{ count: number; last_sequence: number }> {
  return (await (await fetch(`${url}/api/counter/view`)).json()) as { count: number; last_sequence: number };
}

interface StoredEvent {
  sequence: number;
  streamId: string;
  revision: number;
  value: number | undefined;
}

/** Every event of the database at `path`, in sequence order, read with node:sqlite directly. */
function storedEvents(path: string): StoredEvent[] {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return db
      .prepare('SELECT sequence, stream_id, revision, payload FROM app_events ORDER BY sequence')
      .all()
      .map((row) => ({
        sequence: Number(row['sequence']),
        streamId: String(row['stream_id']),
        revision: Number(row['revision']),
        value: (JSON.parse(String(row['payload'])) as { value?: number }).value,
      }));
  } finally {
    db.close();
  }
}

/** A stream of this many 1 KiB events (about 30 MB) already in the store, so the copy takes a while. */
const PADDING_EVENTS = 20_000;
const PADDING_STREAM = 'backup-padding';

function padStore(dataDir: string): void {
  const storage = openSqliteStorage({ path: join(dataDir, 'app.sqlite') });
  try {
    const event = { eventType: 'padded', payload: JSON.stringify({ text: 'x'.repeat(1024) }), metadata: '{}' };
    for (let written = 0; written < PADDING_EVENTS; written += 1000)
      storage.events.append(
        PADDING_STREAM,
        { tag: 'any' },
        Array.from({ length: 1000 }, () => event),
      );
  } finally {
    storage.close();
  }
}

// Each test's limit is a hang guard: at load 19-25 on 2 cores the bad-arguments test (six runs of
// the scripts, each a Node start) took 59 s of the 60 s it had, and the running-host test past 120 s.
describe('backup and restore of the SQLite store', () => {
  it('a backup under 8 writing clients holds every increment acknowledged before it started, gap-free, and a host serves it after a restore', async () => {
    const dataDir = tempDataDir();
    padStore(dataDir);
    const host = await startHost({ dataDir });
    // The count each acknowledged increment answered, in the order the answers arrived.
    const acknowledged: number[] = [];
    let writing = true;
    let enough: () => void = () => undefined;
    const warmedUp = new Promise<void>((resolve) => (enough = resolve));
    const clients = Promise.all(
      Array.from({ length: 8 }, async () => {
        while (writing) {
          acknowledged.push(await incrementAlone(host.url));
          if (acknowledged.length >= 200) enough();
        }
      }),
    );
    // A client that failed ends the wait too (and the test, with its error); the other clients
    // and the host are stopped then, not left writing through the file's later tests (which, at
    // load 25, then ran past their limits too).
    const stopAll = async () => {
      writing = false;
      await host.kill();
    };
    await Promise.race([warmedUp, clients]).catch(async (error: unknown) => {
      await stopAll();
      throw error;
    });

    // Everything in `acknowledged` now was answered before the backup process even started.
    const before = [...acknowledged];
    const file = join(tempDataDir('wasi-backup-'), 'store.sqlite');
    const backup = await runScript('backup', ['--data-dir', host.dataDir, '--to', file]);
    const duringBackup = acknowledged.length - before.length;
    writing = false;
    await clients.catch(async (error: unknown) => {
      await stopAll();
      throw error;
    });
    expect(await host.stop()).toBe(0);

    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    expect(backup.stdout).toMatch(/^backup: copied .* \d+ pages, \d+ bytes, schema version \d+, \d+ events, in \d+\.\d\d s\n$/);
    // The host kept answering writes while the backup ran: it was taken under load.
    expect(duringBackup).toBeGreaterThan(0);

    const restoredDir = join(tempDataDir('wasi-restored-'), 'data');
    const restore = await runScript('restore', ['--data-dir', restoredDir, '--from', file]);
    expect(restore.stderr).toBe('');
    expect(restore.code).toBe(0);
    expect(restore.stdout).toMatch(/^restore: restored .* schema version \d+, \d+ events, \d+ bytes, in \d+\.\d\d s\n$/);

    // The chain in the restored file: global sequences 1..n without a gap, the padding whole, and
    // counter revisions 1..n, each increment recording the count it left (all increments of 1).
    const events = storedEvents(join(restoredDir, 'app.sqlite'));
    const upTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
    expect(events.map((event) => event.sequence)).toEqual(upTo(events.length));
    expect(events.filter((event) => event.streamId === PADDING_STREAM)).toHaveLength(PADDING_EVENTS);
    const counter = events.filter((event) => event.streamId === COUNTER_STREAM_ID);
    expect(counter.length + PADDING_EVENTS).toBe(events.length);
    expect(counter.map((event) => event.revision)).toEqual(upTo(counter.length));
    expect(counter.map((event) => event.value)).toEqual(upTo(counter.length));
    // Every increment acknowledged before the backup started is in it, and nothing never acknowledged.
    expect(new Set(before).size).toBe(before.length);
    expect(counter.length).toBeGreaterThanOrEqual(Math.max(...before));
    expect(counter.length).toBeLessThanOrEqual(acknowledged.length);
    for (const count of before) expect(counter[count - 1]?.value).toBe(count);

    const restored = await startHost({ dataDir: restoredDir });
    try {
      expect(await view(restored.url)).toMatchObject({ count: counter.length, last_sequence: events.length });
      // The chain continues where the backup ends.
      expect(await increment(restored.url)).toBe(counter.length + 1);
    } finally {
      expect(await restored.stop()).toBe(0);
    }
  }, 300_000);

  it('refuses to restore into the data directory of a running host and changes nothing; once the host is gone (killed), restores', async () => {
    const source = await startHost();
    for (let i = 0; i < 3; i++) await increment(source.url);
    const file = join(tempDataDir('wasi-backup-'), 'store.sqlite');
    const first = await runScript('backup', ['--data-dir', source.dataDir, '--to', file]);
    expect(first.code).toBe(0);
    // An existing backup is kept unless --force.
    await increment(source.url);
    const again = await runScript('backup', ['--data-dir', source.dataDir, '--to', file]);
    expect(again).toMatchObject({ code: 2, stdout: '' });
    expect(again.stderr).toMatch(/^backup: .*exists: pass --force to replace it\n$/);
    expect(storedEvents(file)).toHaveLength(3);
    expect((await runScript('backup', ['--data-dir', source.dataDir, '--to', file, '--force'])).code).toBe(0);
    expect(storedEvents(file)).toHaveLength(4);
    expect(await source.stop()).toBe(0);

    const running = await startHost();
    for (let i = 0; i < 6; i++) await increment(running.url);
    const refused = await runScript('restore', ['--data-dir', running.dataDir, '--from', file]);
    expect(refused).toMatchObject({ code: 2, stdout: '' });
    expect(refused.stderr).toMatch(new RegExp(`^restore: refusing: a host \\(pid ${running.child.pid}\\) is running on .*; stop it first, nothing was changed\\n$`));
    // Untouched: the host still serves its own data and writes on.
    expect(await view(running.url)).toMatchObject({ count: 6 });
    expect(await increment(running.url)).toBe(7);
    // Killed, it leaves its pid file behind: a dead pid, which no longer counts.
    await running.kill();
    expect(existsSync(join(running.dataDir, 'running-hosts', String(running.child.pid)))).toBe(true);
    expect(storedEvents(join(running.dataDir, 'app.sqlite'))).toHaveLength(7);
    expect(readdirSync(running.dataDir).filter((name) => name.includes('partial'))).toEqual([]);

    // With no live host on it, the same directory takes the backup.
    const restore = await runScript('restore', ['--data-dir', running.dataDir, '--from', file]);
    expect(restore.code).toBe(0);
    const back = await startHost({ dataDir: running.dataDir });
    try {
      expect(await view(back.url)).toMatchObject({ count: 4, last_sequence: 4 });
    } finally {
      expect(await back.stop()).toBe(0);
    }
  }, 300_000);

  it('refuses a file that is not a database of this project and leaves the data directory as it was', async () => {
    const host = await startHost();
    for (let i = 0; i < 2; i++) await increment(host.url);
    expect(await host.stop()).toBe(0);
    const files = tempDataDir('wasi-not-backup-');

    const text = join(files, 'notes.txt');
    writeFileSync(text, 'not a database\n'.repeat(100));
    const foreign = join(files, 'other.sqlite');
    const other = new DatabaseSync(foreign);
    other.exec("CREATE TABLE things (name TEXT); INSERT INTO things VALUES ('x')");
    other.close();

    for (const [from, reason] of [
      [text, /not an SQLite database/],
      [foreign, /not of this project \(no schema_migrations table\)/],
      [join(files, 'missing.sqlite'), /is not a file/],
    ] as const) {
      const run = await runScript('restore', ['--data-dir', host.dataDir, '--from', from]);
      expect(run).toMatchObject({ code: 2, stdout: '' });
      expect(run.stderr).toMatch(reason);
      expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(storedEvents(join(host.dataDir, 'app.sqlite'))).toHaveLength(2);
    }
    // Into a fresh directory: no database appears.
    const fresh = join(files, 'fresh');
    expect((await runScript('restore', ['--data-dir', fresh, '--from', text])).code).toBe(2);
    expect(existsSync(join(fresh, 'app.sqlite'))).toBe(false);
  }, 180_000);

  it('answers bad arguments with exit 2 and one plain line', async () => {
    const dir = tempDataDir();
    for (const [name, args, message] of [
      ['backup', ['--data-dir', dir], /--to FILE is required/],
      ['backup', ['--data-dir', dir, '--to', join(dir, 'b.sqlite'), '--bogus'], /unknown option --bogus/],
      ['backup', ['--data-dir', dir, '--to', join(dir, 'b.sqlite')], /no database at .*app\.sqlite: check --data-dir/],
      ['restore', ['--data-dir', dir], /--from FILE is required/],
      ['restore', ['--data-dir', dir, '--from'], /^restore: --from needs a value; run with --help/],
      ['restore', ['--data-dir', dir, '--from', join(dir, 'b.sqlite'), '--force'], /unknown option --force/],
    ] as const) {
      const run = await runScript(name, [...args]);
      expect(run).toMatchObject({ code: 2, stdout: '' });
      expect(run.stderr).toMatch(message);
      expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    }
  }, 180_000);
});
