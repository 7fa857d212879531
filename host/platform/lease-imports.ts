/**
 * The app:platform/stream-lease import (wit/stream-lease.wit): a writer's turn on a stream is
 * first its place in this host's FIFO (LocalTurns, no store round trip), then the store's lease
 * (StreamLeaseBackend: advisory lock, lease key or lease row) that excludes other hosts.
 *
 * Whatever the guest does, a turn ends: on drop, or at the backend's lease time if the guest
 * never drops it (a trapped instance); the store's lease then expires too and its fencing refuses
 * the stale holder's append. The wait is bounded by the guest's `wait-ms` (capped at MAX_WAIT_MS).
 */
import { LocalTurns, type Turn } from '../leases/local-turns.ts';
import { describeError, type HostLogger } from '../log.ts';
import type { ExpectedRevision, HeldLease, NewEvent, RecordedEvent, StreamLeaseBackend } from '../storage/types.ts';
import { guard } from './guard.ts';

/** Longest wait a guest may ask for: beyond it a client would long have given up. */
export const MAX_WAIT_MS = 30_000;

/**
 * A reusable store lease (Redis, SQLite) is handed from one local writer to the next without
 * releasing and re-taking it (no store round trip, no hand-over to another process), at most
 * this many times in a row and while it is younger than half the lease time; then it is released
 * so other hosts get their turn. Bounds how long one host keeps a stream to itself.
 */
export const MAX_HANDOFFS = 8;

interface Parked {
  held: HeldLease;
  takenAt: number;
  handoffs: number;
}

export function leaseImports(backend: StreamLeaseBackend, logger: HostLogger) {
  const turns = new LocalTurns();
  /** Store leases handed over to the next local writer of their stream. */
  const parked = new Map<string, Parked>();
  const appendHeld = guard(logger, 'lease-append', (held: HeldLease, expected: ExpectedRevision, events: NewEvent[]) => held.append(expected, events));

  class Lease {
    readonly #held: HeldLease;
    readonly #turn: Turn;
    readonly #streamId: string;
    readonly #takenAt: number;
    readonly #handoffs: number;
    readonly #expiry: NodeJS.Timeout;
    #ended = false;

    constructor(streamId: string, held: HeldLease, turn: Turn, takenAt: number, handoffs: number) {
      this.#streamId = streamId;
      this.#held = held;
      this.#turn = turn;
      this.#takenAt = takenAt;
      this.#handoffs = handoffs;
      // A guest that never drops its lease (trapped, discarded) must not hold the line forever:
      // the turn ends when the store lease expires.
      this.#expiry = setTimeout(() => this.#end(true), Math.max(0, takenAt + backend.ttlMs - performance.now()));
      this.#expiry.unref();
    }

    token(): bigint {
      return this.#held.token;
    }

    append(expected: ExpectedRevision, events: NewEvent[]): RecordedEvent[] | Promise<RecordedEvent[]> {
      return appendHeld(this.#held, expected, events);
    }

    #end(expired = false): void {
      if (this.#ended) return;
      this.#ended = true;
      clearTimeout(this.#expiry);
      const young = performance.now() - this.#takenAt < backend.ttlMs / 2;
      if (!expired && this.#held.reusable && young && this.#handoffs < MAX_HANDOFFS && turns.waiting(this.#streamId) > 0) {
        parked.set(this.#streamId, { held: this.#held, takenAt: this.#takenAt, handoffs: this.#handoffs + 1 });
        this.#turn.leave();
        // The waiter may have given up meanwhile: nobody took the turn, so release what was parked.
        if (!turns.held(this.#streamId)) releaseParked(this.#streamId);
        return;
      }
      const done = (): void => this.#turn.leave();
      try {
        const released = this.#held.release();
        // The next local writer goes to the store once it no longer sees this turn there.
        if (released instanceof Promise) released.catch(() => {}).finally(done);
        else done();
      } catch (error) {
        logger.log('warn', 'stream lease release failed', { code: 'lease_release_failed', error: describeError(error) });
        done();
      }
    }

    [Symbol.dispose](): void {
      this.#end();
    }
  }

  function releaseParked(streamId: string): Promise<void> {
    const lease = parked.get(streamId);
    parked.delete(streamId);
    return Promise.resolve(lease?.held.release()).catch(() => {});
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
        if (performance.now() - handed.takenAt < backend.ttlMs / 2) return new Lease(streamId, handed.held, turn, handed.takenAt, handed.handoffs);
        await Promise.resolve(handed.held.release()).catch(() => {});
      }
      const held = await backend.acquire(streamId, Math.max(0, deadline - performance.now()));
      if (held === undefined) {
        turn.leave();
        return undefined;
      }
      return new Lease(streamId, held, turn, performance.now(), 0);
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
