/**
 * The pg Pool with the settings every connection of this backend needs: bounded waits at every
 * step, bigint parsing of int8, and error listeners so that a server going away never crashes
 * the process. The pool heals by itself: a connection that failed is discarded (pg-pool removes
 * idle clients that emit 'error'; transaction.ts releases broken ones with an error), and the
 * next call opens a fresh one once the server is back.
 */
import { userInfo } from 'node:os';
import { Pool, types as pgTypes, type CustomTypesConfig } from 'pg';
import type { Tables } from './tables.ts';

export const DEFAULT_POOL_SIZE = 10;
/** How long getting a connection (from the pool or a new one) may take before `unavailable`. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 2000;
/** Server-side limit for one statement (lock waits included) before `unavailable`. */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 10_000;

export interface PoolSettings {
  url: string;
  poolSize: number;
  connectTimeoutMs: number;
  statementTimeoutMs: number;
  applicationName: string;
  /** Called with errors of idle connections (server shutdown, network loss); never thrown. */
  onPoolError: (error: Error) => void;
}

/** What every operation needs: the pool and the qualified table names. */
export interface PgContext {
  readonly pool: Pool;
  readonly tables: Tables;
}

const INT8_OID = 20;

/**
 * Type parsers for this pool only (the global pg.types stays untouched for other users of pg in
 * the process): int8 becomes a bigint, so sequences, revisions, versions, counts and counters
 * beyond 2^53 arrive exact. Every other type keeps pg's default parser.
 */
const bigintTypes: CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === INT8_OID && (format === undefined || format === 'text')) return (value: string) => BigInt(value);
    return pgTypes.getTypeParser(oid, format);
  }) as CustomTypesConfig['getTypeParser'],
};

/**
 * A URL without a user name connects as the operating-system user, as libpq (psql) does.
 * pg itself falls back to $PGUSER and then $USER only, which a service manager or container
 * often leaves unset ("no PostgreSQL user name specified in startup packet").
 */
export function withDefaultUser(url: string, env: NodeJS.ProcessEnv = process.env): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url; // not a URL (e.g. a socket path): pg parses it itself
  }
  if (!/^postgres(?:ql)?:$/.test(parsed.protocol) || parsed.username !== '' || env['PGUSER'] || env['USER']) return url;
  let name: string;
  try {
    name = userInfo().username;
  } catch {
    return url; // no passwd entry for this uid: leave it to pg's defaults
  }
  parsed.username = encodeURIComponent(name);
  return parsed.href;
}

export function createPool(settings: PoolSettings): Pool {
  const pool = new Pool({
    connectionString: withDefaultUser(settings.url),
    max: settings.poolSize,
    connectionTimeoutMillis: settings.connectTimeoutMs,
    idleTimeoutMillis: 30_000,
    // Server side: a statement (including its wait for a row lock) is cancelled after this (57014).
    statement_timeout: settings.statementTimeoutMs,
    // Client side: a server that stops answering without closing the socket (network partition)
    // fails the query instead of hanging it forever; transaction.ts then discards the connection.
    query_timeout: settings.statementTimeoutMs + settings.connectTimeoutMs,
    // A connection lost mid-transaction (a crashed host) must not hold the sequence row lock
    // and stall every append: the server ends such a session after this.
    idle_in_transaction_session_timeout: Math.max(settings.statementTimeoutMs * 3, 30_000),
    keepAlive: true,
    application_name: settings.applicationName,
    types: bigintTypes,
  });
  // An idle connection whose server went away (shutdown, restart, network loss) emits 'error'
  // on the pool after pg-pool has already discarded it. Without a listener, EventEmitter would
  // throw it and crash the process; here it is only reported.
  pool.on('error', (error) => settings.onPoolError(error));
  return pool;
}
