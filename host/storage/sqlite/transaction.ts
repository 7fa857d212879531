/**
 * Write transactions. BEGIN IMMEDIATE takes the database write lock up front (waiting up to
 * busy_timeout), so a read-then-write sequence such as "read revision, then insert" cannot be
 * interleaved with another connection's write, and never fails half way with SQLITE_BUSY on
 * lock upgrade the way a deferred transaction can.
 */
import type { DatabaseSync } from 'node:sqlite';

export function immediate<T>(db: DatabaseSync, work: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = work();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    if (db.isTransaction) {
      try {
        db.exec('ROLLBACK');
      } catch {
        // The original error is the useful one; SQLite rolls back on its own if ROLLBACK fails.
      }
    }
    throw error;
  }
}
