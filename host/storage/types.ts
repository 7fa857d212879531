/**
 * The storage contract every backend implements (SQLite, PostgreSQL, Redis).
 * It mirrors the WIT interfaces `app:platform/event-store`, `projection-store` and `key-value`
 * (see wit/), with JS types as jco lowers them: u64 → bigint, option → undefined, variant → {tag, val}.
 * Failures are thrown as `StorageFailure` (./errors.ts), whose `payload` jco hands to the guest.
 */
import type { StreamHeads } from './stream-heads.ts';

export type Awaitable<T> = T | Promise<T>;

export type ExpectedRevision = { tag: 'any' } | { tag: 'no-stream' } | { tag: 'stream-exists' } | { tag: 'exact'; val: bigint };

export interface NewEvent {
  eventType: string;
  payload: string;
  metadata: string;
}

export interface RecordedEvent {
  sequence: bigint;
  streamId: string;
  revision: bigint;
  eventType: string;
  payload: string;
  metadata: string;
  recordedAt: bigint;
}

export interface ReadStreamOptions {
  direction: 'forward' | 'backward';
  fromRevision?: bigint | undefined;
  limit: number;
}

export interface TypeCount {
  eventType: string;
  count: bigint;
}

export interface StoredDocument {
  collection: string;
  id: string;
  body: string;
  version: bigint;
}

export interface DocumentKey {
  collection: string;
  id: string;
}

export type DocumentChange = { tag: 'put'; val: { collection: string; id: string; body: string } } | { tag: 'delete'; val: DocumentKey };

export interface EventStoreBackend {
  append(streamId: string, expected: ExpectedRevision, events: NewEvent[]): Awaitable<RecordedEvent[]>;
  readStream(streamId: string, options: ReadStreamOptions): Awaitable<RecordedEvent[]>;
  streamRevision(streamId: string): Awaitable<bigint>;
  readAll(afterSequence: bigint, limit: number): Awaitable<RecordedEvent[]>;
  headSequence(): Awaitable<bigint>;
  countByType(typePrefix: string): Awaitable<TypeCount[]>;
  removeStream(streamId: string): Awaitable<bigint>;
}

export interface ProjectionStoreBackend {
  checkpoint(projection: string): Awaitable<bigint>;
  commit(projection: string, expected: bigint, next: bigint, changes: DocumentChange[]): Awaitable<boolean>;
  getDocument(key: DocumentKey): Awaitable<StoredDocument | undefined>;
  listDocuments(collection: string, afterId: string | undefined, limit: number): Awaitable<StoredDocument[]>;
}

export interface KeyValueBackend {
  get(namespace: string, key: string): Awaitable<string | undefined>;
  set(namespace: string, key: string, value: string, ttlMs: bigint | undefined): Awaitable<void>;
  take(namespace: string, key: string): Awaitable<string | undefined>;
  increment(namespace: string, key: string, delta: bigint, ttlMs: bigint): Awaitable<bigint>;
  delete(namespace: string, key: string): Awaitable<boolean>;
  /**
   * Deletes every expired entry now and returns how many (host maintenance, not a WIT call).
   * Absent where the store expires entries by itself (Redis).
   */
  sweepExpired?(): Awaitable<number>;
}

/**
 * One writer's turn on one stream, held in the store so that it excludes other hosts
 * (WIT `stream-lease.lease`). `append` is refused (`unavailable`) once the lease expired or was
 * taken over: the fencing that keeps a stalled holder from writing after its turn ended.
 */
export interface HeldLease {
  /** Strictly greater than every earlier turn's token on the stream. */
  readonly token: bigint;
  /**
   * With `release`, the append also ends the lease, in the same round trip where the backend can
   * (whether it wrote or not): the holder's last append of its turn saves the release.
   */
  append(expected: ExpectedRevision, events: NewEvent[], options?: { release?: boolean }): Awaitable<RecordedEvent[]>;
  /** Ends the turn; idempotent; never throws (a lease it cannot end expires on its own). */
  release(): Awaitable<void>;
  /**
   * Extends the lease by the lease time from now, while it is still this holder's: the host
   * calls it on a timer while the turn is held, so the lease time only bounds holders whose host
   * stopped (killed, frozen). False once the lease has ended (expired, taken over, released).
   */
  renew(): Awaitable<boolean>;
  /**
   * True when the lease stays valid for further appends until released or expired (every
   * backend here: PostgreSQL's advisory lock outlives its transactions): the host may then hand
   * it to its next local writer without a store round trip.
   */
  readonly reusable?: boolean;
  /**
   * The stream's newest events when the lease was taken (newest first, at most the `tailEvents`
   * asked for), read in the same round trip as the lease; undefined if the backend did not read them.
   */
  readonly tail?: readonly RecordedEvent[];
}

/** The store's side of per-stream critical sections (docs/scaling.md). */
export interface StreamLeaseBackend {
  /** How long a turn lasts when its holder neither appends nor releases (ms). */
  readonly ttlMs: number;
  /**
   * The turn on `streamId`, or undefined when it did not come within `waitMs`. With `tailEvents`
   * the lease also brings the stream's newest events (HeldLease.tail).
   */
  acquire(streamId: string, waitMs: number, tailEvents?: number): Awaitable<HeldLease | undefined>;
}

/** One storage backend: all its interfaces over one connection/file, plus lifecycle. */
export interface StorageBackend {
  readonly name: string;
  readonly events: EventStoreBackend;
  readonly projections: ProjectionStoreBackend;
  readonly keyValue: KeyValueBackend;
  /** The response cache's validation read (stream-heads.ts); a backend without it caches no store-dependent response. */
  readonly streamHeads?: StreamHeads;
  readonly leases: StreamLeaseBackend;
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

/** Default lease time: far above a command's critical section (milliseconds), the bound a dead holder costs. */
export const DEFAULT_LEASE_TTL_MS = 5_000;
