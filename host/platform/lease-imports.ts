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
 */
import { LocalTurns, type Turn } from '../leases/local-turns.ts';
import { StreamTails, TAIL_EVENTS } from '../leases/stream-tails.ts';
import { describeError, type HostLogger } from '../log.ts';
import { StorageFailure } from '../storage/errors.ts';
import type { ExpectedRevision, HeldLease, NewEvent, RecordedEvent, StreamLeaseBackend } from '../storage/types.ts';
import { guard } from './guard.ts';

/** Longest wait a guest may ask for: beyond it a client would long have given up. */
export const MAX_WAIT_MS = 30_000;

/** Longest one guest may keep a turn: an instance that trapped never drops its lease. */
export const MAX_TURN_MS = 30_000;

/**
 * A reusable store lease is handed from one local writer to the next without releasing and
 * re-taking it (no store round trip, no hand-over to another process), for at most MAX_HANDOFFS
 * turns in a row and while it was taken less than MAX_CHAIN_MS ago; then it is released so other
 * hosts get their turn. Bounds how long one host keeps a stream to itself (docs/scaling.md).
 */
export const MAX_HANDOFFS = 4;
export const MAX_CHAIN_MS = 250;

/**
 * One store lease this host holds, possibly across several local turns; renewed while held.
 * While it is held, the stream's tail (its newest events) answers reads of the stream.
 */
class Hold {
  readonly takenAt = performance.now();
  turns = 1;
  readonly streamId: string;
  readonly held: HeldLease;
  readonly tails: StreamTails;
  /** Ended: released, or by an append that ended it in the same round trip. */
  released = false;
  readonly #renewer: NodeJS.Timeout;

  constructor(streamId: string, held: HeldLease, tails: StreamTails, ttlMs: number, logger: HostLogger) {
    this.streamId = streamId;
    this.held = held;
    this.tails = tails;
    if (held.tail === undefined) tails.drop(streamId);
    else tails.set(streamId, held.tail);
    this.#renewer = setInterval(
      () => {
        Promise.resolve()
          .then(() => held.renew())
          .then(
            (kept) => {
              if (!kept) clearInterval(this.#renewer); // ended: its appends are refused by the store
            },
            (error: unknown) => logger.log('warn', 'stream lease renewal failed', { code: 'lease_renew_failed', error: describeError(error) }),
          );
      },
      Math.max(1, Math.floor(ttlMs / 3)),
    );
    this.#renewer.unref();
  }

  /** Whether it may still be handed to another local turn (the fairness bound). */
  chainOpen(): boolean {
    return this.held.reusable === true && this.turns < MAX_HANDOFFS && performance.now() - this.takenAt < MAX_CHAIN_MS;
  }

  /** No more renewals or tail reads: the lease ends (released, or with the append under way). */
  ending(): void {
    this.released = true;
    clearInterval(this.#renewer);
    this.tails.drop(this.streamId);
  }

  release(): Promise<void> {
    if (this.released) return Promise.resolve();
    this.ending();
    return Promise.resolve()
      .then(() => this.held.release())
      .catch(() => {});
  }
}

/** `tails` is shared with the event-store import, which answers reads from it (storage-imports.ts). */
export function leaseImports(backend: StreamLeaseBackend, logger: HostLogger, tails = new StreamTails()) {
  const turns = new LocalTurns();
  /** Store leases handed over to the next local writer of their stream. */
  const parked = new Map<string, Hold>();
  const appendHeld = guard(logger, 'lease-append', (held: HeldLease, expected: ExpectedRevision, events: NewEvent[], release: boolean) =>
    release ? held.append(expected, events, { release }) : held.append(expected, events),
  );

  class Lease {
    #hold: Hold;
    readonly #turn: Turn;
    readonly #streamId: string;
    readonly #expiry: NodeJS.Timeout;
    #ended = false;

    constructor(streamId: string, hold: Hold, turn: Turn) {
      this.#streamId = streamId;
      this.#hold = hold;
      this.#turn = turn;
      this.#expiry = setTimeout(() => this.#end(true), MAX_TURN_MS);
      this.#expiry.unref();
    }

    token(): bigint {
      return this.#hold.held.token;
    }

    append(expected: ExpectedRevision, events: NewEvent[]): RecordedEvent[] | Promise<RecordedEvent[]> {
      if (this.#ended) throw StorageFailure.unavailable('the stream lease has ended');
      // A second append in a turn whose first one ended the store lease takes it again.
      if (this.#hold.released) return this.#retake().then(() => this.append(expected, events));
      const hold = this.#hold;
      const { tails, streamId } = hold;
      // No local writer waits, or the hand-over bound is reached: the store lease ends with this
      // append, in its round trip (the release costs none).
      const last = !(hold.chainOpen() && turns.waiting(streamId) > 0);
      if (last) hold.ending();
      const done = (recorded: RecordedEvent[]): RecordedEvent[] => {
        tails.appended(streamId, recorded);
        return recorded;
      };
      const failed = (error: unknown): never => {
        tails.drop(streamId); // a conflict means the stream changed behind the tail's back
        throw error;
      };
      try {
        const result = appendHeld(hold.held, expected, events, last);
        return result instanceof Promise ? result.then(done, failed) : done(result);
      } catch (error) {
        return failed(error);
      }
    }

    async #retake(): Promise<void> {
      const held = await backend.acquire(this.#streamId, 2 * backend.ttlMs, TAIL_EVENTS);
      if (held === undefined) throw StorageFailure.unavailable('the stream lease has ended');
      this.#hold = new Hold(this.#streamId, held, tails, backend.ttlMs, logger);
    }

    #end(expired = false): void {
      if (this.#ended) return;
      this.#ended = true;
      clearTimeout(this.#expiry);
      const hold = this.#hold;
      if (hold.released) return this.#turn.leave();
      if (!expired && hold.chainOpen() && turns.waiting(this.#streamId) > 0) {
        hold.turns++;
        parked.set(this.#streamId, hold);
        this.#turn.leave();
        // The waiter may have given up meanwhile: nobody took the turn, so release what was parked.
        if (!turns.held(this.#streamId)) releaseParked(this.#streamId);
        return;
      }
      // The next local writer goes to the store once it no longer sees this turn there.
      void hold.release().finally(() => this.#turn.leave());
    }

    [Symbol.dispose](): void {
      this.#end();
    }
  }

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
        return new Lease(streamId, handed, turn);
      }
      const held = await backend.acquire(streamId, Math.max(0, deadline - performance.now()), TAIL_EVENTS);
      if (held === undefined) {
        turn.leave();
        return undefined;
      }
      return new Lease(streamId, new Hold(streamId, held, tails, backend.ttlMs, logger), turn);
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
