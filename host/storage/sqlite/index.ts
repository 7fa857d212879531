/**
 * The embedded default storage backend: one SQLite file through node:sqlite's synchronous API.
 * Every method returns its value directly (never a Promise) so a guest call into storage
 * completes without suspending the component.
 */
import type { DatabaseSync } from 'node:sqlite';
import type { ExpectedRevision, StorageBackend, TypeCount } from '../types.ts';
import { DEFAULT_LEASE_TTL_MS } from '../../leases/port.ts';
import { createLeases } from './leases.ts';
import { createAppend, type Append } from './append.ts';
import { DEFAULT_BUSY_TIMEOUT_MS, openDatabase } from './connection.ts';
import { createCountByType } from './count-by-type.ts';
import { guardAll, toStorageFailure } from './errors.ts';
import { createHeadSequence } from './head-sequence.ts';
import { createKeyValue, type SqliteKeyValue } from './key-value.ts';
import { migrate } from './migrations.ts';
import { createProjections, type SqliteProjections } from './projections.ts';
import { createReadAll, type ReadAll } from './read-all.ts';
import { createReadStream, type ReadStream } from './read-stream.ts';
import { createRemoveStream } from './remove-stream.ts';
import { createTruncateBefore } from './truncate-before.ts';
import { createScrub, type ScrubOutcome } from './scrub.ts';
import { createReset } from './reset.ts';
import { createStreamRevision } from './stream-revision.ts';
import { createStreamHeads } from './stream-heads.ts';

export { SCHEMA_VERSION, MIGRATIONS, type Migration } from './migrations.ts';

export interface SqliteStorageOptions {
  /** The database file; its directory is created if missing. */
  path: string;
  /** How long a write waits for another connection's lock before failing `unavailable`. */
  busyTimeoutMs?: number;
  /** How long a stream lease lasts when its holder stalls (ms). Default 5000. */
  leaseTtlMs?: number;
}

export interface SqliteEventStore {
  append: Append;
  readStream: ReadStream;
  streamRevision(streamId: string): bigint;
  readAll: ReadAll;
  headSequence(): bigint;
  countByType(typePrefix: string): TypeCount[];
  removeStream(streamId: string, expected: ExpectedRevision): bigint;
  truncateBefore(streamId: string, revision: bigint): bigint;
}

/** A StorageBackend whose methods are all synchronous. */
export interface SqliteStorage extends StorageBackend {
  readonly path: string;
  readonly events: SqliteEventStore;
  readonly projections: SqliteProjections;
  readonly keyValue: SqliteKeyValue;
  scrub(): ScrubOutcome;
  reset(): void;
  close(): void;
}

/** Opens (creating and migrating if needed) the SQLite store at `options.path`. */
export function openSqliteStorage(options: SqliteStorageOptions): SqliteStorage {
  let db: DatabaseSync;
  const busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
  try {
    db = openDatabase(options.path, busyTimeoutMs);
  } catch (error) {
    throw toStorageFailure(error);
  }
  try {
    migrate(db);
  } catch (error) {
    db.close();
    throw toStorageFailure(error);
  }
  // A const for the closures below (TS does not narrow a `let` captured in them).
  const database = db;

  const streamRevision = createStreamRevision(database);
  const append = guardAll({ append: createAppend(database, streamRevision) }).append;
  const events: SqliteEventStore = guardAll({
    append,
    readStream: createReadStream(database),
    streamRevision,
    readAll: createReadAll(database),
    headSequence: createHeadSequence(database),
    countByType: createCountByType(database),
    removeStream: createRemoveStream(database, streamRevision),
    truncateBefore: createTruncateBefore(database),
  });
  const lifecycle = guardAll({
    scrub: createScrub(database, busyTimeoutMs),
    reset: createReset(database),
    close(): void {
      // Idempotent: a host shutting down may close twice.
      if (database.isOpen) database.close();
    },
  });

  const streamHeads = createStreamHeads(database);
  return {
    name: 'sqlite',
    path: options.path,
    events,
    projections: guardAll(createProjections(database)),
    keyValue: guardAll(createKeyValue(database)),
    streamHeads,
    leases: createLeases(database, append, events.readStream, streamHeads, options.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS),
    scrub: lifecycle.scrub,
    reset: lifecycle.reset,
    close: lifecycle.close,
  };
}
