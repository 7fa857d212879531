/**
 * Opens the SQLite file with the settings every connection of this backend needs.
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { StorageFailure } from '../errors.ts';

export const DEFAULT_BUSY_TIMEOUT_MS = 5000;
/** journal_size_limit: what the -wal file is truncated to after a checkpoint (4 MiB). */
export const WAL_SIZE_LIMIT_BYTES = 4 * 1024 * 1024;

export function openDatabase(path: string, busyTimeoutMs: number): DatabaseSync {
  const memory = path === ':memory:';
  if (!memory) mkdirSync(dirname(resolve(path)), { recursive: true, mode: 0o700 });
  const db = new DatabaseSync(path, {
    // busy_timeout: wait for another connection's write lock instead of failing at once.
    timeout: busyTimeoutMs,
    // Every INTEGER comes back as a bigint: sequences, revisions and counters are u64/s64.
    readBigInts: true,
    enableForeignKeyConstraints: true,
  });
  try {
    // WAL: readers never block the writer and vice versa, and a commit is a single append
    // to the -wal file, which is what makes NORMAL below safe.
    const mode = db.prepare('PRAGMA journal_mode = WAL').get()?.['journal_mode'];
    if (!memory && mode !== 'wal') throw StorageFailure.unavailable(`sqlite: cannot enable WAL (journal_mode=${String(mode)})`);
    // synchronous = NORMAL, not FULL: in WAL mode NORMAL skips the fsync on every commit and
    // syncs only at checkpoints. A committed transaction is already in the -wal file (in the OS
    // page cache) when COMMIT returns, so it survives the process being killed (kill -9, crash,
    // OOM); only a power loss or kernel crash can lose the most recent commits, and even then
    // the database stays consistent (never corrupt). FULL would add an fsync to every append
    // for protection against power loss only, which this embedded default does not promise.
    db.exec('PRAGMA synchronous = NORMAL');
    db.exec('PRAGMA foreign_keys = ON');
    // Deleted rows (removed streams: erased personal data) are overwritten, not left in free pages.
    db.exec('PRAGMA secure_delete = ON');
    // The -wal file is cut back to this size whenever a checkpoint resets it: old frames (removed
    // rows among them) do not linger in a file grown by one burst of writes. SQLite's automatic
    // checkpoint runs at 1,000 pages, about this size.
    db.exec(`PRAGMA journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
