/**
 * The single place where SQLite / node:sqlite / filesystem errors become WIT `platform-error`s.
 * Everything the SQLite backend throws passes through `toStorageFailure`.
 */
import { StorageFailure } from '../errors.ts';

/**
 * Primary SQLite result codes (extended code & 0xff) that mean "the store cannot serve this
 * right now": another connection holds a lock past busy_timeout, the disk failed or is full,
 * the file cannot be opened or written. Retrying later may succeed, which is what
 * `unavailable` promises the guest.
 */
const UNAVAILABLE_CODES = new Map<number, string>([
  [5, 'SQLITE_BUSY'],
  [6, 'SQLITE_LOCKED'],
  [7, 'SQLITE_NOMEM'],
  [8, 'SQLITE_READONLY'],
  [10, 'SQLITE_IOERR'],
  [13, 'SQLITE_FULL'],
  [14, 'SQLITE_CANTOPEN'],
  [15, 'SQLITE_PROTOCOL'],
]);

const SQLITE_CONSTRAINT_PRIMARYKEY = 1555;
const SQLITE_CONSTRAINT_UNIQUE = 2067;

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The extended SQLite result code node:sqlite attaches as `errcode`, if any. */
function sqliteCode(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { errcode?: unknown }).errcode;
  return typeof code === 'number' ? code : undefined;
}

function nodeCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/** Maps any thrown value to a StorageFailure (StorageFailures pass through unchanged). */
export function toStorageFailure(error: unknown): StorageFailure {
  if (error instanceof StorageFailure) return error;
  const message = messageOf(error);
  const code = sqliteCode(error);
  if (code !== undefined) {
    const name = UNAVAILABLE_CODES.get(code & 0xff);
    return name !== undefined ? StorageFailure.unavailable(`sqlite ${name}: ${message}`) : StorageFailure.internal(`sqlite error ${code}: ${message}`);
  }
  const node = nodeCode(error);
  // node:sqlite reports a closed database as ERR_INVALID_STATE: the store is not reachable.
  if (node === 'ERR_INVALID_STATE') return StorageFailure.unavailable(`sqlite: ${message}`);
  // errno-style codes (EACCES, ENOSPC, EROFS...) come from creating the database directory.
  if (node !== undefined && /^E[A-Z]+$/.test(node)) return StorageFailure.unavailable(`filesystem ${node}: ${message}`);
  return StorageFailure.internal(message);
}

/** Whether `error` is a UNIQUE / PRIMARY KEY violation on `table`. */
export function isUniqueViolation(error: unknown, table: string): boolean {
  const code = sqliteCode(error);
  if (code !== SQLITE_CONSTRAINT_UNIQUE && code !== SQLITE_CONSTRAINT_PRIMARYKEY) return false;
  return messageOf(error).includes(`${table}.`);
}

/** Wraps a function so that whatever it throws is a StorageFailure. */
export function guard<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  return (...args: A): R => {
    try {
      return fn(...args);
    } catch (error) {
      throw toStorageFailure(error);
    }
  };
}

/** Applies `guard` to every method of an object of functions. */
export function guardAll<T extends object>(methods: T): T {
  const guarded: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(methods)) {
    guarded[key] = typeof value === 'function' ? guard(value as (...args: unknown[]) => unknown) : value;
  }
  return guarded as T;
}
