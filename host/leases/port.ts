/**
 * The store's side of a stream lease, the port every backend implements (host/storage/sqlite/,
 * postgres/, redis/, each in its leases.ts): one writer's turn on a stream that excludes other
 * hosts, fenced by a token. The rest of host/leases/ builds the guest's lease on it
 * (guest-lease.ts), hands a held lease from one local writer to the next (hold.ts, local-turns.ts)
 * and batches their appends (append-queue.ts); docs/scaling.md tells the whole.
 */
import type { NewEvent, RecordedEvent } from '../../src/contract/wit/interfaces/app-platform-event-store.js';
import type { ExpectedRevision } from '../../src/contract/wit/interfaces/app-platform-types.js';
import type { Awaitable } from '../platform-answer.ts';

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

/** Default lease time: far above a command's critical section (milliseconds), the bound a dead holder costs. */
export const DEFAULT_LEASE_TTL_MS = 5_000;
