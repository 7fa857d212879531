/**
 * The single place where PostgreSQL / pg / pg-pool / socket errors become WIT `platform-error`s.
 * Everything the PostgreSQL backend throws passes through `toStorageFailure`.
 *
 * - `unavailable` (retrying later may succeed): the server cannot be reached, went away, is
 *   shutting down or starting up, has no connection slots or resources left, or did not answer
 *   in time; the pool is closed or could not hand out a connection in time.
 * - `conflict` is decided by append.ts, which knows the stream and the expectation: a unique
 *   violation of the (stream_id, revision) constraint (`isUniqueViolation`).
 * - `invalid`: text PostgreSQL cannot store (a NUL character).
 * - everything else is `internal`.
 */
import { DatabaseError } from 'pg';
import { StorageFailure, guardAllAsync } from '../errors.ts';
import { NETWORK_ERROR_CODES } from '../network-errors.ts';

/** SQLSTATE classes that mean "the server cannot serve this right now". */
const UNAVAILABLE_CLASSES = new Map<string, string>([
  ['08', 'connection exception'],
  ['53', 'insufficient resources'], // 53300 too_many_connections, 53100 disk_full, 53200 out_of_memory
  ['57P', 'operator intervention'], // 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now
]);

/** Single SQLSTATEs outside those classes that are just as transient. */
const UNAVAILABLE_CODES = new Map<string, string>([
  ['57014', 'query_canceled (statement_timeout)'],
  ['55P03', 'lock_not_available (lock_timeout)'],
  ['40001', 'serialization_failure'],
  ['40P01', 'deadlock_detected'],
  ['25P03', 'idle_in_transaction_session_timeout'],
]);

/** Arguments PostgreSQL refuses to store: text with NUL (0x00) or bytes invalid in the encoding. */
const INVALID_CODES = new Map<string, string>([
  ['22021', 'character_not_in_repertoire'],
  ['22P05', 'untranslatable_character'],
]);

/**
 * pg and pg-pool report their own connection states as plain Errors without a code; these are
 * their messages (pg 8.x): a dropped connection, a connect or query timeout, a closed pool.
 */
const DRIVER_MESSAGES = [
  /connection terminated/i, // 'Connection terminated unexpectedly', '... due to connection timeout'
  /timeout exceeded when trying to connect/i, // pool: connectionTimeoutMillis
  /query read timeout/i, // query_timeout
  /cannot use a pool after calling end/i, // after close()
  /client has encountered a connection error and is not queryable/i,
  /client was closed and is not queryable/i,
];

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function stringProperty(error: unknown, name: string): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const value = (error as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
}

/** The SQLSTATE of a server error, if `error` is one. */
export function sqlState(error: unknown): string | undefined {
  if (error instanceof DatabaseError) return error.code;
  // A DatabaseError from another copy of pg-protocol: same shape, 5-character SQLSTATE.
  const code = stringProperty(error, 'code');
  return code !== undefined && /^[0-9A-Z]{5}$/.test(code) && stringProperty(error, 'severity') !== undefined ? code : undefined;
}

/** Whether `error` means the server or the connection to it is (for now) unusable. */
export function isUnavailable(error: unknown): boolean {
  return unavailableReason(error) !== undefined;
}

function unavailableReason(error: unknown): string | undefined {
  const state = sqlState(error);
  if (state !== undefined) {
    return UNAVAILABLE_CODES.get(state) ?? UNAVAILABLE_CLASSES.get(state.slice(0, 3)) ?? UNAVAILABLE_CLASSES.get(state.slice(0, 2));
  }
  const code = stringProperty(error, 'code');
  if (code !== undefined && NETWORK_ERROR_CODES.has(code)) return code;
  // Connecting to "localhost" tries every address; Node reports all the failures together.
  if (error instanceof AggregateError) {
    for (const inner of error.errors) {
      const reason = unavailableReason(inner);
      if (reason !== undefined) return reason;
    }
  }
  const message = messageOf(error);
  if (DRIVER_MESSAGES.some((pattern) => pattern.test(message))) return 'connection';
  return undefined;
}

/** Maps any thrown value to a StorageFailure (StorageFailures pass through unchanged). */
export function toStorageFailure(error: unknown): StorageFailure {
  if (error instanceof StorageFailure) return error;
  const message = messageOf(error) || (error instanceof AggregateError ? error.errors.map(messageOf).join('; ') : '');
  const reason = unavailableReason(error);
  if (reason !== undefined) return StorageFailure.unavailable(`postgres ${reason}: ${message}`);
  const state = sqlState(error);
  if (state !== undefined) {
    const invalid = INVALID_CODES.get(state);
    if (invalid !== undefined) return StorageFailure.invalid(`postgres ${invalid}: ${message}`);
    return StorageFailure.internal(`postgres error ${state}: ${message}`);
  }
  return StorageFailure.internal(message);
}

/** Whether `error` is a unique violation (23505) of the constraint named `constraint`. */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  return sqlState(error) === '23505' && stringProperty(error, 'constraint') === constraint;
}

/** Applies the shared guard (../errors.ts) with this backend's error mapping. */
export function guardAll<T extends object>(methods: T): T {
  return guardAllAsync(toStorageFailure, methods);
}
