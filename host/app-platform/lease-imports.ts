/**
 * The app:platform/stream-lease import (wit/stream-lease.wit): a writer's turn on a stream is
 * first its place in this host's FIFO (LocalTurns, no store round trip), then the store's lease
 * (StreamLeaseBackend: advisory lock, lease key or lease row) that excludes other hosts.
 *
 * While a turn is held the host renews the store lease on a timer (every third of the lease
 * time), so a live holder never loses it however long its critical section takes on a starved
 * machine: the lease time only bounds holders whose host stopped (killed, frozen), which are then
 * fenced off by the store. A guest that never drops its lease (a trapped instance) loses the turn
 * after MAX_TURN_MS. The wait is bounded by the guest's `wait-ms` (capped at MAX_WAIT_MS).
 *
 * A turn that ends with `append-and-end` while the next local writer waits hands the store lease
 * on as soon as its append is sent: the next writer decides on the pending events (`read-newest`,
 * ../leases/stream-tails.ts) while the append travels, and its own append is sent once that one
 * is confirmed, together with every other append decided meanwhile, as one append (group commit,
 * ../leases/append-queue.ts); if it failed, the appends decided on it are refused (`conflict`)
 * without being sent. So the critical section of a chain is the guest's decision, not the store
 * round trip, and the revision check still only ever sees appends decided on committed events.
 * The guest gets its answer once its events are committed (docs/scaling.md).
 */
import { LocalTurns } from '../leases/local-turns.ts';
import { type StreamTails, TAIL_EVENTS } from '../leases/stream-tails.ts';
import type { HostLogger } from '../log.ts';
import type { ExpectedRevision, NewEvent, ReadStreamOptions, RecordedEvent } from '../storage/types.ts';
import type { Awaitable } from '../platform-answer.ts';
import type { HeldLease, StreamLeaseBackend } from '../leases/port.ts';
import { Lease, type LeaseHost } from '../leases/guest-lease.ts';
import { guard } from './guard.ts';
import { Hold } from '../leases/hold.ts';

/** Longest wait a guest may ask for: beyond it a client would long have given up. */
export const MAX_WAIT_MS = 30_000;

/** Where `read-newest` goes when the tail does not cover it: the store's event reads. */
export interface EventReader {
  readStream(streamId: string, options: ReadStreamOptions): Awaitable<RecordedEvent[]>;
}

/**
 * `tails` is shared with the event-store import, which answers reads from it (storage-imports.ts).
 * `onSent` is told of each store append and how many of the leases' appends it carries (metrics).
 */
export function leaseImports(backend: StreamLeaseBackend, logger: HostLogger, tails: StreamTails, events: EventReader, onSent?: (appends: number) => void) {
  const turns = new LocalTurns();
  const parked = new Map<string, Hold>();
  const appendHeld = guard(logger, 'lease-append', (held: HeldLease, expected: ExpectedRevision, list: NewEvent[], release: boolean) =>
    release ? held.append(expected, list, { release }) : held.append(expected, list),
  );
  const host: LeaseHost = {
    backend,
    tails,
    turns,
    parked,
    readStore: guard(logger, 'lease-read-newest', (streamId: string, limit: number) => events.readStream(streamId, { direction: 'backward', limit })),
    hold: (streamId, held) => new Hold(streamId, held, tails, backend.ttlMs, logger, (expected, list, release) => appendHeld(held, expected, list, release), onSent),
    releaseParked,
  };

  function releaseParked(streamId: string): void {
    const hold = parked.get(streamId);
    parked.delete(streamId);
    void hold?.release();
  }

  async function acquire(streamId: string, waitMs: number): Promise<Lease | undefined> {
    const wait = Math.min(Math.max(0, waitMs), MAX_WAIT_MS);
    const deadline = performance.now() + wait;
    const turn = await turns.enter(streamId, wait);
    if (turn === undefined) return undefined;
    try {
      const handed = parked.get(streamId);
      if (handed !== undefined) {
        parked.delete(streamId);
        return new Lease(host, streamId, handed, turn);
      }
      const held = await backend.acquire(streamId, Math.max(0, deadline - performance.now()), TAIL_EVENTS);
      if (held === undefined) {
        turn.leave();
        return undefined;
      }
      return new Lease(host, streamId, host.hold(streamId, held), turn);
    } catch (error) {
      turn.leave();
      throw error;
    }
  }

  return {
    'app:platform/stream-lease': {
      Lease,
      acquire: guard(logger, 'lease-acquire', acquire),
    },
  };
}
