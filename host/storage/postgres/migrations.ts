/**
 * Versioned schema. At open, pending migrations run in order, each once, in ONE transaction,
 * and are recorded in `schema_migrations` (in the backend's own schema). Never edit a released
 * migration: append a new one (version 2, 3, ...). Data tables are prefixed `app_` so reset()
 * can find them all.
 *
 * Several hosts starting at once against a fresh database would otherwise race to create the
 * same tables (and fail on pg_type/pg_namespace unique violations): the whole migration takes a
 * transaction-scoped advisory lock keyed by the schema name first, so exactly one host migrates
 * and the others, once it commits, find nothing pending. The lock is released with the
 * transaction, also when the host dies.
 */
import { StorageFailure } from '../errors.ts';
import type { PgContext } from './connection.ts';
import { transaction } from './transaction.ts';
import { int, type Row } from '../sql/values.ts';

export interface Migration {
  readonly version: number;
  readonly name: string;
  /** Runs with search_path set to the backend's schema: names are unqualified. */
  readonly sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'events, projections, key-value',
    sql: `
      -- The global sequence counter: one row, locked by every append (see append.ts for why this
      -- and not a bigserial). value = the last sequence assigned by a committed append.
      CREATE TABLE app_event_sequence (
        id    boolean PRIMARY KEY DEFAULT true CHECK (id),
        value bigint  NOT NULL CHECK (value >= 0)
      );
      INSERT INTO app_event_sequence (id, value) VALUES (true, 0);

      -- Keys and types are COLLATE "C": compared and ordered byte-wise, exactly and
      -- case-sensitively, like SQLite's BINARY and independent of the database's locale.
      -- payload and metadata are text, not json/jsonb: they round-trip byte for byte.
      CREATE TABLE app_events (
        sequence    bigint NOT NULL PRIMARY KEY CHECK (sequence >= 1),
        stream_id   text COLLATE "C" NOT NULL,
        revision    bigint NOT NULL CHECK (revision >= 1),
        event_type  text COLLATE "C" NOT NULL,
        payload     text NOT NULL,
        metadata    text NOT NULL,
        recorded_at bigint NOT NULL, -- ms since the Unix epoch, server clock
        -- the final arbiter of optimistic concurrency (append.ts); also the index behind
        -- stream reads and MAX(revision)
        CONSTRAINT app_events_stream_revision_key UNIQUE (stream_id, revision)
      );
      -- count-by-type: starts_with() on a "C" column is a range scan of this index.
      CREATE INDEX app_events_by_type ON app_events (event_type);

      CREATE TABLE app_checkpoints (
        projection text COLLATE "C" NOT NULL PRIMARY KEY,
        position   bigint NOT NULL CHECK (position >= 0)
      );

      CREATE TABLE app_documents (
        collection text COLLATE "C" NOT NULL,
        id         text COLLATE "C" NOT NULL,
        body       text NOT NULL,
        version    bigint NOT NULL CHECK (version >= 1),
        PRIMARY KEY (collection, id)
      );

      CREATE TABLE app_kv (
        namespace  text COLLATE "C" NOT NULL,
        key        text COLLATE "C" NOT NULL,
        value      text NOT NULL,
        expires_at bigint, -- ms since the Unix epoch, server clock; NULL = never
        PRIMARY KEY (namespace, key)
      );
      -- lets writes sweep a few expired rows without scanning the table
      CREATE INDEX app_kv_by_expiry ON app_kv (expires_at) WHERE expires_at IS NOT NULL;
    `,
  },
  {
    version: 2,
    name: 'totals of removed events',
    sql: `
      -- Events of removed streams (remove-stream.ts), per type: count-by-type adds them, so the
      -- counts stay those of every event ever appended.
      CREATE TABLE app_removed_event_counts (
        event_type text COLLATE "C" NOT NULL PRIMARY KEY,
        count      bigint NOT NULL CHECK (count >= 0)
      );
    `,
  },
];

/** The newest schema version this build knows. */
export const SCHEMA_VERSION = MIGRATIONS.reduce((max, m) => Math.max(max, m.version), 0);

/** Brings the schema to SCHEMA_VERSION, creating it if needed; returns the version afterwards. */
export async function migrate({ pool, tables }: PgContext): Promise<number> {
  return transaction(pool, async (client) => {
    // Serializes migrations of this schema across every host; other schemas are not blocked.
    await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`wasi-app migrate ${tables.schemaName}`]);
    // CREATE SCHEMA IF NOT EXISTS still needs the CREATE privilege on the database, which a
    // pre-provisioned schema's owner may not have: create it only when it is missing.
    const exists = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [tables.schemaName]);
    if (exists.rowCount === 0) await client.query(`CREATE SCHEMA ${tables.schema}`);
    await client.query(`SET LOCAL search_path TO ${tables.schema}`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${tables.migrations} (
      version    integer NOT NULL PRIMARY KEY,
      name       text    NOT NULL,
      applied_at bigint  NOT NULL
    )`);
    const result = await client.query<Row>(`SELECT COALESCE(MAX(version), 0)::bigint AS version FROM ${tables.migrations}`);
    const current = Number(int(result.rows[0] ?? { version: 0n }, 'version'));
    if (current > SCHEMA_VERSION) {
      // A newer build migrated this schema; running old code on it could corrupt data.
      throw StorageFailure.internal(`database schema version ${current} is newer than this build (${SCHEMA_VERSION})`);
    }
    const pending = [...MIGRATIONS].filter((m) => m.version > current).sort((a, b) => a.version - b.version);
    for (const migration of pending) {
      await client.query(migration.sql);
      await client.query(
        `INSERT INTO ${tables.migrations} (version, name, applied_at)
         VALUES ($1, $2, floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint)`,
        [migration.version, migration.name],
      );
    }
    return pending.at(-1)?.version ?? current;
  });
}
