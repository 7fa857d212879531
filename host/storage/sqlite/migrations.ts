/**
 * Versioned schema. Migrations run in order, each once, inside one IMMEDIATE transaction at
 * open, and are recorded in `schema_migrations`. Never edit a released migration: append a new
 * one (version 2, 3, ...). Data tables are prefixed `app_` so reset() can find them all.
 */
import type { DatabaseSync } from 'node:sqlite';
import { StorageFailure } from '../errors.ts';
import { immediate } from './transaction.ts';
import { int } from '../sql/values.ts';

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'events, projections, key-value',
    sql: `
      -- AUTOINCREMENT: sequences are never reused, even after the newest events are deleted.
      -- A rolled-back append also rolls back sqlite_sequence, so sequences have no gaps.
      CREATE TABLE app_events (
        sequence    INTEGER PRIMARY KEY AUTOINCREMENT,
        stream_id   TEXT    NOT NULL,
        revision    INTEGER NOT NULL CHECK (revision >= 1),
        event_type  TEXT    NOT NULL,
        payload     TEXT    NOT NULL,
        metadata    TEXT    NOT NULL,
        recorded_at INTEGER NOT NULL,
        -- also the index behind stream reads and MAX(revision)
        UNIQUE (stream_id, revision)
      ) STRICT;
      -- count-by-type scans only this covering index, over the prefix range.
      CREATE INDEX app_events_by_type ON app_events (event_type);

      CREATE TABLE app_checkpoints (
        projection TEXT    NOT NULL PRIMARY KEY,
        position   INTEGER NOT NULL CHECK (position >= 0)
      ) STRICT, WITHOUT ROWID;

      CREATE TABLE app_documents (
        collection TEXT    NOT NULL,
        id         TEXT    NOT NULL,
        body       TEXT    NOT NULL,
        version    INTEGER NOT NULL CHECK (version >= 1),
        PRIMARY KEY (collection, id)
      ) STRICT, WITHOUT ROWID;

      CREATE TABLE app_kv (
        namespace  TEXT    NOT NULL,
        key        TEXT    NOT NULL,
        value      TEXT    NOT NULL,
        expires_at INTEGER,           -- ms since epoch; NULL = never
        PRIMARY KEY (namespace, key)
      ) STRICT;
      -- lets writes sweep a few expired rows without scanning the table
      CREATE INDEX app_kv_by_expiry ON app_kv (expires_at) WHERE expires_at IS NOT NULL;
    `,
  },
  {
    version: 2,
    name: 'stream leases',
    sql: `
      -- One row per stream that was ever leased (leases.ts): the last fencing token and until
      -- when its turn lasts (ms since epoch; 0 = released). The row is kept so tokens only grow.
      CREATE TABLE app_stream_leases (
        stream_id  TEXT    NOT NULL PRIMARY KEY,
        token      INTEGER NOT NULL CHECK (token >= 1),
        expires_at INTEGER NOT NULL
      ) STRICT, WITHOUT ROWID;
    `,
  },
  {
    version: 3,
    name: 'totals of removed events',
    sql: `
      -- Events of removed streams (remove-stream.ts), per type: count-by-type adds them, so the
      -- counts stay those of every event ever appended.
      CREATE TABLE app_removed_event_counts (
        event_type TEXT    NOT NULL PRIMARY KEY,
        count      INTEGER NOT NULL CHECK (count >= 0)
      ) STRICT, WITHOUT ROWID;
    `,
  },
];

/** The newest schema version this build knows. */
export const SCHEMA_VERSION = MIGRATIONS.reduce((max, m) => Math.max(max, m.version), 0);

/** Brings the database to SCHEMA_VERSION; returns the version it is at afterwards. */
export function migrate(db: DatabaseSync): number {
  return immediate(db, () => {
    db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version    INTEGER NOT NULL PRIMARY KEY,
      applied_at INTEGER NOT NULL
    ) STRICT`);
    const row = db.prepare('SELECT COALESCE(MAX(version), 0) AS version FROM schema_migrations').get();
    const current = row === undefined ? 0 : Number(int(row, 'version'));
    if (current > SCHEMA_VERSION) {
      // A newer build migrated this file; running old code on it could corrupt data.
      throw StorageFailure.internal(`database schema version ${current} is newer than this build (${SCHEMA_VERSION})`);
    }
    const record = db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)');
    const pending = [...MIGRATIONS].filter((m) => m.version > current).sort((a, b) => a.version - b.version);
    for (const migration of pending) {
      db.exec(migration.sql);
      record.run(migration.version, Date.now());
    }
    return pending.at(-1)?.version ?? current;
  });
}
