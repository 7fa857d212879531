/**
 * The PostgreSQL storage backend: a pg Pool over one schema of a shared database, for several
 * hosts serving one store. Every method returns a Promise (the guest suspends through JSPI while
 * the query runs) and fails only with StorageFailure (errors.ts maps everything).
 */
import { StorageFailure } from '../errors.ts';
import type { AsyncEventStore, AsyncStorageBackend } from '../types.ts';
import { DEFAULT_LEASE_TTL_MS } from '../../leases/port.ts';
import { createLeases } from './leases.ts';
import { createAppend } from './append.ts';
import { createPool, DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_POOL_SIZE, DEFAULT_STATEMENT_TIMEOUT_MS, type PgContext } from './connection.ts';
import { createCountByType } from './count-by-type.ts';
import { guardAll, toStorageFailure } from './errors.ts';
import { createHeadSequence } from './head-sequence.ts';
import { createKeyValue } from './key-value.ts';
import { migrate } from './migrations.ts';
import { createProjections } from './projections.ts';
import { createReadAll } from './read-all.ts';
import { createReadStream } from './read-stream.ts';
import { createRemoveStream } from './remove-stream.ts';
import { createTruncateBefore } from './truncate-before.ts';
import { createReset } from './reset.ts';
import { createStreamRevision } from './stream-revision.ts';
import { createStreamHeads } from './stream-heads.ts';
import { DEFAULT_SCHEMA, tablesIn } from './tables.ts';

export { SCHEMA_VERSION, MIGRATIONS, type Migration } from './migrations.ts';
export { DEFAULT_SCHEMA } from './tables.ts';

export interface PostgresStorageOptions {
  /** Connection URL, e.g. postgres://user@127.0.0.1:5432/app. */
  url: string;
  /** The schema holding every table of this store (created if missing). Default `wasi_app`. */
  schema?: string;
  /** Connections per host. Default 10. */
  poolSize?: number;
  /** How long getting a connection may take before `unavailable`. Default 2000 ms. */
  connectTimeoutMs?: number;
  /** Server-side statement timeout (lock waits included) before `unavailable`. Default 10000 ms. */
  statementTimeoutMs?: number;
  /** How long a stream lease lasts when its holder stalls (ms). Default 5000. */
  leaseTtlMs?: number;
  /** Errors of idle pooled connections (server restart, network loss), e.g. to log them. */
  onPoolError?: (error: Error) => void;
}

export interface PostgresStorage extends AsyncStorageBackend {
  readonly schema: string;
}

function positiveInteger(kind: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${kind} must be a positive integer`);
  return value;
}

/**
 * Connects, creates the schema and applies pending migrations (once, even with several hosts
 * starting together), and returns the backend. Fails with StorageFailure `unavailable` when the
 * server cannot be reached.
 */
export async function openPostgresStorage(options: PostgresStorageOptions): Promise<PostgresStorage> {
  let context: PgContext;
  try {
    const tables = tablesIn(options.schema ?? DEFAULT_SCHEMA);
    const pool = createPool({
      url: options.url,
      poolSize: positiveInteger('poolSize', options.poolSize, DEFAULT_POOL_SIZE),
      connectTimeoutMs: positiveInteger('connectTimeoutMs', options.connectTimeoutMs, DEFAULT_CONNECT_TIMEOUT_MS),
      statementTimeoutMs: positiveInteger('statementTimeoutMs', options.statementTimeoutMs, DEFAULT_STATEMENT_TIMEOUT_MS),
      applicationName: `wasi-app:${tables.schemaName}`,
      onPoolError: options.onPoolError ?? (() => {}),
    });
    context = { pool, tables };
  } catch (error) {
    // A malformed URL or option: nothing to retry.
    throw error instanceof RangeError || error instanceof TypeError ? StorageFailure.invalid(error.message) : toStorageFailure(error);
  }
  const { pool, tables } = context;
  try {
    await migrate(context);
  } catch (error) {
    await pool.end().catch(() => {});
    throw toStorageFailure(error);
  }

  const streamRevision = createStreamRevision(context);
  const { append, leasedAppend } = createAppend(context, streamRevision);
  const events: AsyncEventStore = guardAll({
    append,
    readStream: createReadStream(context),
    streamRevision,
    readAll: createReadAll(context),
    headSequence: createHeadSequence(context),
    countByType: createCountByType(context),
    removeStream: createRemoveStream(context),
    truncateBefore: createTruncateBefore(context),
  });

  let closing: Promise<void> | undefined;
  const lifecycle = guardAll({
    reset: createReset(context),
    async close(): Promise<void> {
      // Idempotent: a host shutting down may close twice (pg-pool throws on a second end()).
      closing ??= pool.end();
      await closing;
    },
  });

  return {
    name: 'postgres',
    schema: tables.schemaName,
    events,
    projections: guardAll(createProjections(context)),
    keyValue: guardAll(createKeyValue(context)),
    streamHeads: guardAll({ streamHeads: createStreamHeads(context) }).streamHeads,
    leases: createLeases(context, leasedAppend, positiveInteger('leaseTtlMs', options.leaseTtlMs, DEFAULT_LEASE_TTL_MS)),
    reset: lifecycle.reset,
    close: lifecycle.close,
  };
}
