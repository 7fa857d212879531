/**
 * Whether a file is a SQLite database of this project that this build can serve: it opens as
 * SQLite, passes `PRAGMA quick_check`, records a schema version this build knows, and holds every
 * table the migrations up to that version create (compared with an in-memory database migrated
 * as far, so new migrations need no change here).
 */
import { DatabaseSync } from 'node:sqlite';
import { MIGRATIONS, SCHEMA_VERSION } from '../../host/storage/sqlite/index.ts';

export interface ProjectDatabase {
  readonly schemaVersion: number;
  readonly events: bigint;
}

/** A file that is not a database of this project, in words for the operator. */
export class NotProjectDatabase extends Error {
  override readonly name = 'NotProjectDatabase';
}

function tables(db: DatabaseSync): Set<string> {
  const rows = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").all();
  return new Set(rows.map((row) => String(row['name'])));
}

function expectedTables(version: number): Set<string> {
  const db = new DatabaseSync(':memory:');
  try {
    for (const migration of MIGRATIONS.filter((m) => m.version <= version)) db.exec(migration.sql);
    return tables(db);
  } finally {
    db.close();
  }
}

/** Checks the database at `path` (opened read-write: it must be a private copy). */
export function checkProjectDatabase(path: string): ProjectDatabase {
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(path, { readBigInts: true });
  } catch (error) {
    throw new NotProjectDatabase(`cannot open it as SQLite: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    let found: Set<string>;
    try {
      found = tables(db);
    } catch (error) {
      throw new NotProjectDatabase(`not an SQLite database (${error instanceof Error ? error.message : String(error)})`);
    }
    if (!found.has('schema_migrations')) throw new NotProjectDatabase('an SQLite database, but not of this project (no schema_migrations table)');
    const version = Number(db.prepare('SELECT COALESCE(MAX(version), 0) AS version FROM schema_migrations').get()?.['version'] ?? 0);
    if (version < 1) throw new NotProjectDatabase('an SQLite database of this project with no schema applied');
    if (version > SCHEMA_VERSION)
      throw new NotProjectDatabase(`its schema version ${version} is newer than this build (${SCHEMA_VERSION}): restore it with the release that wrote it`);
    const missing = [...expectedTables(version)].filter((name) => !found.has(name));
    if (missing.length > 0) throw new NotProjectDatabase(`an SQLite database, but not of this project (missing ${missing.join(', ')})`);
    const check = db.prepare('PRAGMA quick_check').all();
    if (check.length !== 1 || check[0]?.['quick_check'] !== 'ok') throw new NotProjectDatabase(`damaged: quick_check reports ${String(check[0]?.['quick_check'])}`);
    const events = db.prepare('SELECT COUNT(*) AS n FROM app_events').get()?.['n'];
    return { schemaVersion: version, events: typeof events === 'bigint' ? events : 0n };
  } finally {
    db.close();
  }
}
