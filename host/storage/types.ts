/**
 * The storage contract every backend implements (SQLite, PostgreSQL, Redis): the WIT interfaces
 * `app:platform/event-store`, `projection-store` and `key-value` (wit/), typed by what jco generates
 * from them (src/contract/wit/, `npm run gen:wit-types`): u64 → bigint, option → undefined,
 * variant → {tag, val}. A backend may answer any call with a Promise (PostgreSQL, Redis).
 * Failures are thrown as `StorageFailure` (./errors.ts), whose `payload` jco hands to the guest.
 */
import type * as EventStoreWit from '../../src/contract/wit/interfaces/app-platform-event-store.js';
import type * as KeyValueWit from '../../src/contract/wit/interfaces/app-platform-key-value.js';
import type * as ProjectionStoreWit from '../../src/contract/wit/interfaces/app-platform-projection-store.js';
import type { Awaitable } from '../platform-answer.ts';
import type { StreamLeaseBackend } from '../leases/port.ts';
import type { StreamHeads } from './stream-heads.ts';

export type { NewEvent, ReadStreamOptions, RecordedEvent, TypeCount } from '../../src/contract/wit/interfaces/app-platform-event-store.js';
export type { DocumentChange, DocumentKey, Document as StoredDocument } from '../../src/contract/wit/interfaces/app-platform-projection-store.js';
export type { ExpectedRevision } from '../../src/contract/wit/interfaces/app-platform-types.js';

export type { Awaitable } from '../platform-answer.ts';

/** The functions of a WIT interface as a backend implements them: the same arguments, the answer possibly awaited. */
export type BackendOf<Interface> = {
  [K in keyof Interface as Interface[K] extends (...args: never) => unknown ? K : never]: Interface[K] extends (...args: infer A) => infer R ? (...args: A) => Awaitable<R> : never;
};

export type EventStoreBackend = BackendOf<typeof EventStoreWit>;
export type ProjectionStoreBackend = BackendOf<typeof ProjectionStoreWit>;
export type KeyValueBackend = BackendOf<typeof KeyValueWit> & {
  /**
   * Deletes every expired entry now and returns how many (host maintenance, not a WIT call).
   * Absent where the store expires entries by itself (Redis).
   */
  sweepExpired?(): Awaitable<number>;
};

/** One storage backend: all its interfaces over one connection/file, plus lifecycle. */
export interface StorageBackend {
  readonly name: string;
  readonly events: EventStoreBackend;
  readonly projections: ProjectionStoreBackend;
  readonly keyValue: KeyValueBackend;
  /** The response cache's validation read (stream-heads.ts); a backend without it caches no store-dependent response. */
  readonly streamHeads?: StreamHeads;
  readonly leases: StreamLeaseBackend;
  /**
   * One attempt at WIT `erasure.scrub`: removes from the store's files the copies of removed data;
   * `busy` when other readers hold it back (try again later: host/storage/scrubber.ts). Absent
   * where the backend cannot do it from inside (PostgreSQL, Redis: docs/storage.md says what their
   * operators run).
   */
  scrub?(): Awaitable<'done' | 'busy'>;
  /** Deletes this project's data (tables or keys) and nothing else. */
  reset(): Awaitable<void>;
  close(): Awaitable<void>;
}

/** A backend part whose every method answers with a Promise (PostgreSQL, Redis). */
export type AsyncOf<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => Awaitable<infer R> ? (...args: A) => Promise<R> : T[K];
};
export type AsyncEventStore = AsyncOf<EventStoreBackend>;
export type AsyncProjectionStore = AsyncOf<ProjectionStoreBackend>;
export type AsyncKeyValue = AsyncOf<KeyValueBackend>;

/** A StorageBackend whose methods all return Promises. */
export interface AsyncStorageBackend extends StorageBackend {
  readonly events: AsyncEventStore;
  readonly projections: AsyncProjectionStore;
  readonly keyValue: AsyncKeyValue;
  reset(): Promise<void>;
  close(): Promise<void>;
}

/** Limits shared by every backend (the WIT documents them). */
export const MAX_READ_LIMIT = 1000;
