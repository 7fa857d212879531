/**
 * One store lease this host holds (StreamLeaseBackend), possibly across several local turns of
 * its stream: renewed on a timer while held, its appends sent one round trip at a time (group
 * commit, ../leases/append-queue.ts), and what it has seen committed kept for the turns that read
 * pending events (host/app-platform/lease-imports.ts).
 */
import { AppendQueue, type SendAppend } from './append-queue.ts';
import { type StreamTails, TAIL_EVENTS } from './stream-tails.ts';
import { describeError, type HostLogger } from '../log.ts';
import type { RecordedEvent } from '../../src/contract/wit/interfaces/app-platform-event-store.js';
import type { HeldLease } from './port.ts';

/**
 * A reusable store lease is handed from one local writer to the next without releasing and
 * re-taking it (no store round trip, no hand-over to another process), for at most MAX_HANDOFFS
 * turns in a row and while it was taken less than MAX_CHAIN_MS ago; then it is released so other
 * hosts get their turn. Bounds how long one host keeps a stream to itself (docs/scaling.md).
 */
export const MAX_HANDOFFS = 8;
export const MAX_CHAIN_MS = 250;

/**
 * One store lease this host holds, possibly across several local turns; renewed while held.
 * While it is held, the stream's tail (its newest events) answers reads of the stream.
 */
export class Hold {
  readonly takenAt = performance.now();
  turns = 1;
  readonly streamId: string;
  readonly held: HeldLease;
  readonly tails: StreamTails;
  /** Ended: released, or by an append that ended it in the same round trip. */
  released = false;
  /**
   * The lease's appends, one round trip at a time: those handed on (append-and-end) while one is
   * in flight go out together once it is confirmed (group commit), or are refused if it failed.
   */
  readonly appends: AppendQueue;
  /**
   * What this store lease has seen committed, newest first, contiguous, at most TAIL_EVENTS: the
   * tail it came with and every append of its chain as confirmed. Unlike the shared tail it
   * outlives the lease, so a turn that read pending events learns them as committed.
   */
  #committed: RecordedEvent[];
  readonly #renewer: NodeJS.Timeout;

  constructor(streamId: string, held: HeldLease, tails: StreamTails, ttlMs: number, logger: HostLogger, send: SendAppend, onSent?: (appends: number) => void) {
    this.streamId = streamId;
    this.held = held;
    this.tails = tails;
    // An append that was to end the lease and is refused unsent: end it here (HeldLease.release is idempotent).
    const endUnsent = (): void =>
      void Promise.resolve()
        .then(() => held.release())
        .catch(() => {});
    this.appends = new AppendQueue(streamId, send, endUnsent, onSent);
    if (held.tail === undefined) tails.drop(streamId);
    else tails.set(streamId, held.tail);
    this.#committed = held.tail === undefined ? [] : held.tail.slice(0, TAIL_EVENTS);
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

  /** An append of the chain was confirmed (appends are confirmed in the order they were sent). */
  committed(recorded: readonly RecordedEvent[]): void {
    const first = recorded[0];
    if (first === undefined) return;
    const continues = first.revision === (this.#committed[0]?.revision ?? 0n) + 1n;
    this.#committed = [...recorded]
      .reverse()
      .concat(continues ? this.#committed : [])
      .slice(0, TAIL_EVENTS);
  }

  /** The newest committed events up to `revision` it knows of, newest first (possibly fewer than asked). */
  committedUpTo(revision: bigint, limit: number): RecordedEvent[] {
    return this.#committed.filter((e) => e.revision <= revision).slice(0, limit);
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

  /** Ends the lease once its appends are settled (the last one may have ended it already: `released`). */
  release(): Promise<void> {
    if (this.released) return Promise.resolve();
    this.ending();
    return this.appends
      .settled()
      .then(() => this.held.release())
      .catch(() => {});
  }
}
