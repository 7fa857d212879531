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
import { AppendQueue, type SendAppend } from '../leases/append-queue.ts';
import { LocalTurns, type Turn } from '../leases/local-turns.ts';
import { PENDING, type StreamTails, TAIL_EVENTS } from '../leases/stream-tails.ts';
import { describeError, type HostLogger } from '../log.ts';
import { StorageFailure } from '../storage/errors.ts';
import type { Awaitable, ExpectedRevision, HeldLease, NewEvent, ReadStreamOptions, RecordedEvent, StreamLeaseBackend } from '../storage/types.ts';
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
export const MAX_HANDOFFS = 8;
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

/** Where `read-newest` goes when the tail does not cover it: the store's event reads. */
export interface EventReader {
  readStream(streamId: string, options: ReadStreamOptions): Awaitable<RecordedEvent[]>;
}

/** The revision the first of `events` gets when `expected` holds at `head`; undefined when it does not. */
function nextRevision(expected: ExpectedRevision, head: bigint): bigint | undefined {
  if (expected.tag === 'exact' && expected.val === head) return head + 1n;
  if (expected.tag === 'no-stream' && head === 0n) return 1n;
  return undefined;
}

/**
 * `tails` is shared with the event-store import, which answers reads from it (storage-imports.ts).
 * `onSent` is told of each store append and how many of the leases' appends it carries (metrics).
 */
export function leaseImports(backend: StreamLeaseBackend, logger: HostLogger, tails: StreamTails, events: EventReader, onSent?: (appends: number) => void) {
  const turns = new LocalTurns();
  /** Store leases handed over to the next local writer of their stream. */
  const parked = new Map<string, Hold>();
  const appendHeld = guard(logger, 'lease-append', (held: HeldLease, expected: ExpectedRevision, list: NewEvent[], release: boolean) =>
    release ? held.append(expected, list, { release }) : held.append(expected, list),
  );
  const sendOn =
    (held: HeldLease): SendAppend =>
    (expected, list, release) =>
      appendHeld(held, expected, list, release);
  const readStore = guard(logger, 'lease-read-newest', (streamId: string, limit: number) => events.readStream(streamId, { direction: 'backward', limit }));

  class Lease {
    #hold: Hold;
    readonly #turn: Turn;
    readonly #streamId: string;
    readonly #expiry: NodeJS.Timeout;
    #ended = false;
    /** After `append-and-end`: every later call is refused. */
    #closed = false;
    /** The turn went on to the next writer with this lease's append (append-and-end). */
    #handedOn = false;
    /** `read-newest` showed pending events: append-and-end's answer then carries them committed. */
    #sawPending = false;

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

    readNewest(limit: number): RecordedEvent[] | Promise<RecordedEvent[]> {
      this.#usable();
      const fromTail = tails.readNewest(this.#streamId, limit);
      if (fromTail === undefined) return readStore(this.#streamId, limit);
      if (fromTail[0]?.sequence === PENDING) this.#sawPending = true;
      return fromTail;
    }

    appendAndEnd(expected: ExpectedRevision, list: NewEvent[], newest: number): RecordedEvent[] | Promise<RecordedEvent[]> {
      this.#usable();
      const hold = this.#hold;
      const streamId = this.#streamId;
      const head = tails.head(streamId);
      const first = head === undefined ? undefined : nextRevision(expected, head);
      // Committed: the appended events, newest first, and, when the turn read some pending, what
      // this store lease saw committed before them (a turn that read none has them already).
      const finish = (recorded: RecordedEvent[]): RecordedEvent[] => {
        const last = recorded.at(-1);
        if (last === undefined || !this.#sawPending) return [...recorded].reverse();
        const before = this.#hold.committedUpTo(last.revision - BigInt(recorded.length), Math.max(0, newest - recorded.length));
        return [...recorded].reverse().concat(before);
      };
      if (hold.released || first === undefined || list.length === 0 || !(hold.chainOpen() && turns.waiting(streamId) > 0)) {
        const result = this.append(expected, list);
        this.#closed = true;
        return result instanceof Promise ? result.then(finish) : finish(result);
      }
      // The next local writer waits: send the append, then hand the turn on with its events pending.
      this.#closed = true;
      let sent: RecordedEvent[] | Promise<RecordedEvent[]>;
      try {
        sent = hold.appends.add(expected, list, false);
      } catch (error) {
        tails.drop(streamId);
        throw error;
      }
      if (!(sent instanceof Promise)) {
        // A synchronous store (SQLite) confirmed it already: nothing to overlap, the turn passes
        // at the drop as usual (handing it on first only interleaves the next guest with this one).
        tails.appended(streamId, sent);
        hold.committed(sent);
        return finish(sent);
      }
      this.#handedOn = true;
      tails.handOn(
        streamId,
        list.map((event, i) => ({ ...event, streamId, sequence: PENDING, revision: first + BigInt(i), recordedAt: 0n })),
      );
      const confirmed = sent.then(
        (recorded) => {
          tails.appended(streamId, recorded);
          hold.committed(recorded);
          return finish(recorded);
        },
        (error: unknown) => {
          tails.drop(streamId);
          throw error;
        },
      );
      this.#passOn(hold);
      return confirmed;
    }

    #usable(): void {
      if (this.#ended || this.#closed) throw StorageFailure.unavailable('the stream lease has ended');
    }

    append(expected: ExpectedRevision, events: NewEvent[]): RecordedEvent[] | Promise<RecordedEvent[]> {
      this.#usable();
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
        hold.committed(recorded);
        return recorded;
      };
      const failed = (error: unknown): never => {
        tails.drop(streamId); // a conflict means the stream changed behind the tail's back
        throw error;
      };
      try {
        const result = hold.appends.add(expected, events, last);
        return result instanceof Promise ? result.then(done, failed) : done(result);
      } catch (error) {
        return failed(error);
      }
    }

    async #retake(): Promise<void> {
      const held = await backend.acquire(this.#streamId, 2 * backend.ttlMs, TAIL_EVENTS);
      if (held === undefined) throw StorageFailure.unavailable('the stream lease has ended');
      this.#hold = new Hold(this.#streamId, held, tails, backend.ttlMs, logger, sendOn(held), onSent);
    }

    #end(expired = false): void {
      if (this.#ended) return;
      this.#ended = true;
      clearTimeout(this.#expiry);
      if (this.#handedOn) return;
      const hold = this.#hold;
      if (hold.released) return this.#turn.leave();
      if (!expired && hold.chainOpen() && turns.waiting(this.#streamId) > 0) return this.#passOn(hold);
      // The next local writer goes to the store once it no longer sees this turn there.
      void hold.release().finally(() => this.#turn.leave());
    }

    /** The store lease goes on to the next local writer without a release (one more turn of the chain). */
    #passOn(hold: Hold): void {
      hold.turns++;
      parked.set(this.#streamId, hold);
      this.#turn.leave();
      // The waiter may have given up meanwhile: nobody took the turn, so release what was parked.
      if (!turns.held(this.#streamId)) releaseParked(this.#streamId);
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
      return new Lease(streamId, new Hold(streamId, held, tails, backend.ttlMs, logger, sendOn(held), onSent), turn);
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
