/**
 * The SQLite backend: the shared storage contract (fresh file per test, plus a second
 * connection on the same file for cross-connection races), then what only SQLite has:
 * schema migrations, durability across close/reopen and kill -9, WAL, lock contention
 * between threads, and the error mapping.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { StorageFailure } from '../../host/storage/errors.ts';
import { openDatabase } from '../../host/storage/sqlite/connection.ts';
import { globPrefix } from '../../host/storage/sqlite/count-by-type.ts';
import { isUniqueViolation, toStorageFailure } from '../../host/storage/sqlite/errors.ts';
import { openSqliteStorage, SCHEMA_VERSION, type SqliteStorage } from '../../host/storage/sqlite/index.ts';
import { runStorageContract } from './contract.ts';
import { runLeaseContract } from './lease-contract.ts';
import { expectContiguousRace, raceWorkers } from './race-workers.ts';

const root = mkdtempSync(join(tmpdir(), 'storage-sqlite-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let counter = 0;
/** A path in a directory that does not exist yet, so every open also exercises mkdir. */
function freshPath(): string {
  counter++;
  return join(root, `db-${counter}`, 'nested', 'app.db');
}

let currentPath = '';
runStorageContract(
  'sqlite',
  async () => {
    currentPath = freshPath();
    return openSqliteStorage({ path: currentPath });
  },
  { openSecond: async () => openSqliteStorage({ path: currentPath }) },
);

runLeaseContract('sqlite', {
  factory: async () => {
    currentPath = freshPath();
    return openSqliteStorage({ path: currentPath });
  },
  openWithTtl: async (leaseTtlMs) => openSqliteStorage({ path: currentPath, leaseTtlMs }),
});

/** A plain connection for inspecting the file behind the backend's back. */
function inspect<T>(path: string, look: (db: DatabaseSync) => T): T {
  const db = new DatabaseSync(path, { readBigInts: true, timeout: 5000 });
  try {
    return look(db);
  } finally {
    db.close();
  }
}

const event = (eventType: string, payload = '{}') => ({ eventType, payload, metadata: '{}' });

describe('sqlite backend specifics', () => {
  const opened: SqliteStorage[] = [];
  function open(path: string, busyTimeoutMs?: number): SqliteStorage {
    const storage = openSqliteStorage(busyTimeoutMs === undefined ? { path } : { path, busyTimeoutMs });
    opened.push(storage);
    return storage;
  }
  afterEach(() => {
    for (const storage of opened.splice(0)) storage.close();
  });

  it('creates the parent directory and records every migration in schema_migrations once', () => {
    const path = freshPath();
    expect(existsSync(join(path, '..'))).toBe(false);
    open(path).close();
    open(path).close(); // reopening must not re-apply anything
    expect(existsSync(path)).toBe(true);
    const rows = inspect(path, (db) => db.prepare('SELECT version, applied_at FROM schema_migrations ORDER BY version').all());
    expect(rows.map((r) => r['version'])).toEqual(Array.from({ length: SCHEMA_VERSION }, (_, i) => BigInt(i + 1)));
    expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(1);
    const appliedAt = Number(rows[0]?.['applied_at']);
    expect(Math.abs(appliedAt - Date.now())).toBeLessThan(60_000);
  });

  it('creates only app_-prefixed data tables, and an events index by type', () => {
    const path = freshPath();
    open(path).close();
    const names = inspect(path, (db) =>
      db
        .prepare("SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name")
        .all()
        .map((r) => `${String(r['type'])}:${String(r['name'])}`),
    );
    expect(names.filter((n) => n.startsWith('table:'))).toEqual([
      'table:app_checkpoints',
      'table:app_documents',
      'table:app_events',
      'table:app_kv',
      'table:app_removed_event_counts',
      'table:app_stream_leases',
      'table:schema_migrations',
    ]);
    expect(names).toContain('index:app_events_by_type');
  });

  it('count-by-type scans the event_type index as a range', () => {
    const path = freshPath();
    open(path).close();
    const plan = inspect(path, (db) =>
      db
        .prepare('EXPLAIN QUERY PLAN SELECT event_type, COUNT(*) FROM app_events WHERE event_type GLOB ? GROUP BY event_type')
        .all(globPrefix('user.'))
        .map((r) => String(r['detail'])),
    );
    expect(plan.join('\n')).toMatch(/INDEX app_events_by_type \(event_type>\? AND event_type<\?\)/);
    expect(globPrefix('a*b?c[d')).toBe('a[*]b[?]c[[]d*');
  });

  it('refuses a database migrated by a newer build', () => {
    const path = freshPath();
    open(path).close();
    inspect(path, (db) => db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(SCHEMA_VERSION + 1, 0));
    let failure: unknown;
    try {
      open(path);
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(StorageFailure);
    expect((failure as StorageFailure).payload.tag).toBe('internal');
  });

  it('uses WAL, synchronous NORMAL, foreign keys and a busy timeout', () => {
    const path = freshPath();
    open(path).close();
    expect(inspect(path, (db) => db.prepare('PRAGMA journal_mode').get()?.['journal_mode'])).toBe('wal');
    const db = openDatabase(freshPath(), 1234);
    try {
      expect(db.prepare('PRAGMA journal_mode').get()?.['journal_mode']).toBe('wal');
      expect(db.prepare('PRAGMA synchronous').get()?.['synchronous']).toBe(1n); // 1 = NORMAL
      expect(db.prepare('PRAGMA foreign_keys').get()?.['foreign_keys']).toBe(1n);
      expect(db.prepare('PRAGMA busy_timeout').get()?.['timeout']).toBe(1234n);
    } finally {
      db.close();
    }
  });

  it('keeps events, projections and key-value across close and reopen', () => {
    const path = freshPath();
    const first = open(path);
    const recorded = first.events.append('s', { tag: 'no-stream' }, [event('a'), event('b')]);
    first.projections.commit('p', 0n, 2n, [{ tag: 'put', val: { collection: 'c', id: 'x', body: '{}' } }]);
    first.keyValue.set('ns', 'k', 'v', undefined);
    first.close();

    const again = open(path);
    expect(again.events.readAll(0n, 10)).toEqual(recorded);
    expect(again.projections.checkpoint('p')).toBe(2n);
    expect(again.projections.getDocument({ collection: 'c', id: 'x' })?.version).toBe(1n);
    expect(again.keyValue.get('ns', 'k')).toBe('v');
    expect(again.events.append('s', { tag: 'exact', val: 2n }, [event('c')])[0]?.sequence).toBe(3n);
  });

  it('keeps every committed append when the process is killed with SIGKILL', () => {
    const path = freshPath();
    const moduleUrl = pathToFileURL(join(import.meta.dirname, '../../host/storage/sqlite/index.ts')).href;
    const script = `
      import { openSqliteStorage } from ${JSON.stringify(moduleUrl)};
      const storage = openSqliteStorage({ path: ${JSON.stringify(path)} });
      for (let i = 1; i <= 50; i++) {
        storage.events.append('durable', { tag: 'exact', val: BigInt(i - 1) }, [{ eventType: 't', payload: String(i), metadata: '{}' }]);
      }
      storage.keyValue.set('ns', 'k', 'v', undefined);
      process.kill(process.pid, 'SIGKILL');
    `;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(child.stderr).toBe('');
    expect(child.signal).toBe('SIGKILL');
    // The WAL was never checkpointed into the main file: recovery must replay it.
    expect(existsSync(`${path}-wal`)).toBe(true);
    const storage = open(path);
    const events = storage.events.readStream('durable', { direction: 'forward', limit: 1000 });
    expect(events.map((e) => e.payload)).toEqual(Array.from({ length: 50 }, (_, i) => String(i + 1)));
    expect(storage.keyValue.get('ns', 'k')).toBe('v');
  });

  it('appends from 4 threads racing on one file stay contiguous (real lock contention)', async () => {
    const path = freshPath();
    open(path).close(); // migrate once up front
    const WORKERS = 4;
    const COUNT = 200;
    const results = await raceWorkers(new URL('./sqlite-writer.worker.ts', import.meta.url), WORKERS, { path, stream: 'counter', count: COUNT });
    const storage = open(path);
    expectContiguousRace(storage.events.readAll(0n, 1000), WORKERS, COUNT);
    // Conflicts are likely but not guaranteed (one core may run each thread to completion).
    expect(results.every((r) => typeof r.conflicts === 'number')).toBe(true);
  }, 60_000);

  it('reports a write lock held past busy_timeout as unavailable, and recovers', () => {
    const path = freshPath();
    const storage = open(path, 50);
    const blocker = new DatabaseSync(path, { timeout: 0 });
    try {
      blocker.exec('BEGIN IMMEDIATE');
      let failure: unknown;
      try {
        storage.events.append('s', { tag: 'any' }, [event('a')]);
      } catch (error) {
        failure = error;
      }
      expect(failure).toBeInstanceOf(StorageFailure);
      expect((failure as StorageFailure).payload.tag).toBe('unavailable');
      // Readers are not blocked by a writer in WAL mode.
      expect(storage.events.headSequence()).toBe(0n);
      blocker.exec('ROLLBACK');
    } finally {
      blocker.close();
    }
    expect(storage.events.append('s', { tag: 'no-stream' }, [event('a')])[0]?.revision).toBe(1n);
  });

  it('reset() leaves other tables and the migration history alone', () => {
    const path = freshPath();
    const storage = open(path);
    inspect(path, (db) => db.exec("CREATE TABLE other_project (x TEXT); INSERT INTO other_project VALUES ('keep')"));
    storage.events.append('s', { tag: 'any' }, [event('a')]);
    storage.reset();
    expect(storage.events.headSequence()).toBe(0n);
    expect(
      inspect(path, (db) =>
        db
          .prepare('SELECT x FROM other_project')
          .all()
          .map((r) => r['x']),
      ),
    ).toEqual(['keep']);
    expect(inspect(path, (db) => db.prepare('SELECT COUNT(*) AS n FROM schema_migrations').get()?.['n'])).toBe(BigInt(SCHEMA_VERSION));
  });

  it('sweeps expired key-value rows on writes', async () => {
    const path = freshPath();
    const storage = open(path);
    for (let i = 0; i < 20; i++) storage.keyValue.set('ns', `old-${i}`, 'v', 1n);
    await new Promise((resolve) => setTimeout(resolve, 20));
    storage.keyValue.set('ns', 'fresh', 'v', undefined);
    const rows = inspect(path, (db) =>
      db
        .prepare('SELECT key FROM app_kv')
        .all()
        .map((r) => r['key']),
    );
    expect(rows).toEqual(['fresh']);
  });

  it('returns values directly, never Promises, so the guest never suspends', () => {
    const storage = open(freshPath());
    const results: unknown[] = [
      storage.events.append('s', { tag: 'any' }, [event('a')]),
      storage.events.readStream('s', { direction: 'forward', limit: 1 }),
      storage.events.streamRevision('s'),
      storage.events.readAll(0n, 1),
      storage.events.headSequence(),
      storage.events.countByType(''),
      storage.projections.checkpoint('p'),
      storage.projections.commit('p', 0n, 1n, []),
      storage.projections.getDocument({ collection: 'c', id: 'x' }),
      storage.projections.listDocuments('c', undefined, 1),
      storage.keyValue.set('ns', 'k', '1', undefined),
      storage.keyValue.get('ns', 'k'),
      storage.keyValue.increment('ns', 'k', 1n, 1000n),
      storage.keyValue.take('ns', 'k'),
      storage.keyValue.delete('ns', 'k'),
      storage.reset(),
    ];
    expect(results.some((r) => r instanceof Promise)).toBe(false);
  });

  it('a closed backend fails unavailable; close is idempotent', () => {
    const storage = open(freshPath());
    storage.close();
    storage.close();
    let failure: unknown;
    try {
      storage.events.headSequence();
    } catch (error) {
      failure = error;
    }
    expect((failure as StorageFailure).payload.tag).toBe('unavailable');
  });

  it('an unopenable path fails unavailable', () => {
    const dir = join(root, `dir-${++counter}`);
    mkdirSync(dir, { recursive: true });
    let failure: unknown;
    try {
      open(dir); // a directory, not a database file
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(StorageFailure);
    expect((failure as StorageFailure).payload.tag).toBe('unavailable');
  });

  it('maps SQLite and Node errors to platform errors in one place', () => {
    const sqliteError = (errcode: number, message = 'boom') => Object.assign(new Error(message), { code: 'ERR_SQLITE_ERROR', errcode });
    expect(toStorageFailure(sqliteError(5)).payload.tag).toBe('unavailable'); // SQLITE_BUSY
    expect(toStorageFailure(sqliteError(517)).payload.tag).toBe('unavailable'); // SQLITE_BUSY_SNAPSHOT
    expect(toStorageFailure(sqliteError(6)).payload.tag).toBe('unavailable'); // SQLITE_LOCKED
    expect(toStorageFailure(sqliteError(778)).payload.tag).toBe('unavailable'); // SQLITE_IOERR_WRITE
    expect(toStorageFailure(sqliteError(13)).payload.tag).toBe('unavailable'); // SQLITE_FULL
    expect(toStorageFailure(sqliteError(11)).payload.tag).toBe('internal'); // SQLITE_CORRUPT
    expect(toStorageFailure(sqliteError(2067)).payload.tag).toBe('internal'); // other constraints
    expect(toStorageFailure(Object.assign(new Error('x'), { code: 'ERR_INVALID_STATE' })).payload.tag).toBe('unavailable');
    expect(toStorageFailure(Object.assign(new Error('x'), { code: 'EACCES' })).payload.tag).toBe('unavailable');
    expect(toStorageFailure(new TypeError('bug')).payload).toEqual({ tag: 'internal', val: 'bug' });
    const conflict = StorageFailure.conflict('s', { tag: 'any' }, 1n);
    expect(toStorageFailure(conflict)).toBe(conflict);
    expect(isUniqueViolation(sqliteError(2067, 'UNIQUE constraint failed: app_events.stream_id, app_events.revision'), 'app_events')).toBe(true);
    expect(isUniqueViolation(sqliteError(2067, 'UNIQUE constraint failed: app_kv.key'), 'app_events')).toBe(false);
  });

  it('turns a (stream_id, revision) constraint violation into a conflict with the actual revision', () => {
    const path = freshPath();
    const storage = open(path);
    storage.events.append('s', { tag: 'any' }, [event('a')]);
    // Simulate a writer that bypassed BEGIN IMMEDIATE: a trigger makes our insert collide.
    inspect(path, (db) =>
      db.exec(`CREATE TRIGGER test_collide BEFORE INSERT ON app_events WHEN NEW.stream_id = 's' AND NEW.revision = 2
               BEGIN INSERT INTO app_events (stream_id, revision, event_type, payload, metadata, recorded_at)
                     VALUES ('s', 2, 'sneaky', '{}', '{}', 0); END`),
    );
    let failure: unknown;
    try {
      storage.events.append('s', { tag: 'exact', val: 1n }, [event('b')]);
    } catch (error) {
      failure = error;
    }
    expect((failure as StorageFailure).payload).toEqual({
      tag: 'conflict',
      val: { streamId: 's', expected: { tag: 'exact', val: 1n }, actual: 1n },
    });
  });
});
