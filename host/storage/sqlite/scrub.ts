/**
 * erasure.scrub on SQLite, one attempt: a TRUNCATE checkpoint copies the write-ahead log into the
 * database and empties the -wal file, so the frames that still held removed rows are gone
 * (secure_delete, connection.ts, has overwritten the rows themselves with zeros in the pages the
 * checkpoint writes). It cannot finish while another connection (a worker thread, `npm run
 * backup`) reads an older snapshot: then it answers `busy` at once instead of waiting in SQLite's
 * busy handler, which would block this thread's event loop; host/storage/scrubber.ts tries again.
 * https://sqlite.org/pragma.html#pragma_wal_checkpoint
 */
import type { DatabaseSync } from 'node:sqlite';

export type ScrubOutcome = 'done' | 'busy';

export function createScrub(db: DatabaseSync, busyTimeoutMs: number): () => ScrubOutcome {
  const checkpoint = db.prepare('PRAGMA wal_checkpoint(TRUNCATE)');
  return function scrub() {
    db.exec('PRAGMA busy_timeout = 0');
    try {
      const row = checkpoint.get() as { busy: bigint } | undefined;
      return row?.busy === 0n ? 'done' : 'busy';
    } finally {
      db.exec(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
    }
  };
}
