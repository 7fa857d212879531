/**
 * How the host answers a call of the guest's app:platform imports (storage, leases, pub/sub, mail,
 * password hashing): with a value or a Promise of it, or by throwing the WIT `platform-error`.
 * jco passes an error's own `payload` property to the guest as the `err` side of a `result`, so
 * every import throws a StorageFailure (the name is the store's, the first to throw it).
 */
import type { ExpectedRevision, PlatformError } from '../src/contract/wit/interfaces/app-platform-types.js';

export type { PlatformError };

/** An answer the host may give at once or after a wait (PostgreSQL and Redis answer with Promises). */
export type Awaitable<T> = T | Promise<T>;

export class StorageFailure extends Error {
  readonly payload: PlatformError;
  constructor(payload: PlatformError) {
    super(payload.tag === 'conflict' ? `revision conflict on ${payload.val.streamId}` : `${payload.tag}: ${payload.val}`);
    this.name = 'StorageFailure';
    this.payload = payload;
  }
  get code(): PlatformError['tag'] {
    return this.payload.tag;
  }
  static conflict(streamId: string, expected: ExpectedRevision, actual: bigint): StorageFailure {
    return new StorageFailure({ tag: 'conflict', val: { streamId, expected, actual } });
  }
  static unavailable(message: string): StorageFailure {
    return new StorageFailure({ tag: 'unavailable', val: message });
  }
  static invalid(message: string): StorageFailure {
    return new StorageFailure({ tag: 'invalid', val: message });
  }
  static internal(message: string): StorageFailure {
    return new StorageFailure({ tag: 'internal', val: message });
  }
}
