/**
 * The single place where ioredis / Redis / network errors become WIT `platform-error`s.
 * Everything the Redis backend throws passes through `toStorageFailure`.
 */
import { StorageFailure, guardAllAsync } from '../errors.ts';
import { INVALID_REPLY } from './script.ts';
import { NETWORK_ERROR_CODES } from '../network-errors.ts';

/**
 * ioredis' own messages for "not connected right now": the offline queue is off, the connection
 * was closed (by us or by the server), a reply never came (`commandTimeout`), the command was
 * in flight when the connection dropped.
 */
const CLIENT_UNAVAILABLE = [
  'Connection is closed',
  "Stream isn't writeable",
  'Command timed out',
  'Command aborted due to connection close',
  'Reached the max retries per request limit',
  'Redis is already connecting',
];

/**
 * Redis error codes (first word of an error reply) that mean "the server refused service for
 * now": still loading its dataset, busy running a script, a failover in progress, out of memory,
 * persistence failing, or not authorised. Retrying later may succeed, which is what
 * `unavailable` promises the guest.
 */
const UNAVAILABLE_REPLIES = new Set(['LOADING', 'BUSY', 'TRYAGAIN', 'MASTERDOWN', 'READONLY', 'CLUSTERDOWN', 'OOM', 'MISCONF', 'NOAUTH', 'WRONGPASS', 'NOPERM']);

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function field(error: unknown, name: string): unknown {
  return typeof error === 'object' && error !== null ? (error as Record<string, unknown>)[name] : undefined;
}

/** Maps any thrown value to a StorageFailure (StorageFailures pass through unchanged). */
export function toStorageFailure(error: unknown): StorageFailure {
  if (error instanceof StorageFailure) return error;
  const message = messageOf(error);
  const name = field(error, 'name');
  const code = field(error, 'code');

  if (name === 'ReplyError') {
    const reply = message.split(' ', 1)[0] ?? '';
    if (reply === INVALID_REPLY) return StorageFailure.invalid(message.slice(INVALID_REPLY.length).trim());
    if (UNAVAILABLE_REPLIES.has(reply)) return StorageFailure.unavailable(`redis: ${message}`);
    return StorageFailure.internal(`redis: ${message}`);
  }
  if (name === 'MaxRetriesPerRequestError' || name === 'AbortError' || name === 'InterruptError') return StorageFailure.unavailable(`redis: ${message}`);
  if (typeof code === 'string' && NETWORK_ERROR_CODES.has(code)) return StorageFailure.unavailable(`redis ${code}: ${message}`);
  if (CLIENT_UNAVAILABLE.some((text) => message.includes(text))) return StorageFailure.unavailable(`redis: ${message}`);
  return StorageFailure.internal(message);
}

/** Applies the shared guard (../errors.ts) with this backend's error mapping. */
export function guardAll<T extends object>(methods: T): T {
  return guardAllAsync(toStorageFailure, methods);
}
