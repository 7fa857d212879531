/**
 * The `stream-lease.lease` resource as the guest holds it (wit/stream-lease.wit): one writer's
 * turn on a stream, on a store lease (hold.ts) it may have been handed by the turn before.
 * `append-and-end` hands the turn on as soon as its append is sent when the next local writer
 * waits; dropping the resource ends the turn (host/app-platform/lease-imports.ts describes the whole).
 */
import type { LocalTurns, Turn } from './local-turns.ts';
import { PENDING, type StreamTails, TAIL_EVENTS } from './stream-tails.ts';
import { type Awaitable, StorageFailure } from '../platform-answer.ts';
import type { ExpectedRevision, NewEvent, RecordedEvent } from '../../src/contract/wit/interfaces/app-platform-event-store.js';
import type { HeldLease, StreamLeaseBackend } from './port.ts';
import type { Hold } from './hold.ts';

/** Longest one guest may keep a turn: an instance that trapped never drops its lease. */
export const MAX_TURN_MS = 30_000;

/** What the leases of one host's import share: its queue of local turns, its store, its stream tails. */
export interface LeaseHost {
  readonly backend: StreamLeaseBackend;
  readonly tails: StreamTails;
  readonly turns: LocalTurns;
  /** Store leases handed over to the next local writer of their stream. */
  readonly parked: Map<string, Hold>;
  /** `read-newest` when the tail does not cover it: the store's newest events. */
  readStore(streamId: string, limit: number): Awaitable<RecordedEvent[]>;
  /** A hold on a store lease just taken. */
  hold(streamId: string, held: HeldLease): Hold;
  /** Releases the store lease parked for `streamId`, if any (its next writer gave up). */
  releaseParked(streamId: string): void;
}

/** The revision the first of `events` gets when `expected` holds at `head`; undefined when it does not. */
function nextRevision(expected: ExpectedRevision, head: bigint): bigint | undefined {
  if (expected.tag === 'exact' && expected.val === head) return head + 1n;
  if (expected.tag === 'no-stream' && head === 0n) return 1n;
  return undefined;
}

export class Lease {
  readonly #host: LeaseHost;
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

  constructor(host: LeaseHost, streamId: string, hold: Hold, turn: Turn) {
    this.#host = host;
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
    const fromTail = this.#host.tails.readNewest(this.#streamId, limit);
    if (fromTail === undefined) return this.#host.readStore(this.#streamId, limit);
    if (fromTail[0]?.sequence === PENDING) this.#sawPending = true;
    return fromTail;
  }

  appendAndEnd(expected: ExpectedRevision, list: NewEvent[], newest: number): RecordedEvent[] | Promise<RecordedEvent[]> {
    this.#usable();
    const hold = this.#hold;
    const streamId = this.#streamId;
    const head = this.#host.tails.head(streamId);
    const first = head === undefined ? undefined : nextRevision(expected, head);
    // Committed: the appended events, newest first, and, when the turn read some pending, what
    // this store lease saw committed before them (a turn that read none has them already).
    const finish = (recorded: RecordedEvent[]): RecordedEvent[] => {
      const last = recorded.at(-1);
      if (last === undefined || !this.#sawPending) return [...recorded].reverse();
      const before = this.#hold.committedUpTo(last.revision - BigInt(recorded.length), Math.max(0, newest - recorded.length));
      return [...recorded].reverse().concat(before);
    };
    if (hold.released || first === undefined || list.length === 0 || !(hold.chainOpen() && this.#host.turns.waiting(streamId) > 0)) {
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
      this.#host.tails.drop(streamId);
      throw error;
    }
    if (!(sent instanceof Promise)) {
      // A synchronous store (SQLite) confirmed it already: nothing to overlap, the turn passes
      // at the drop as usual (handing it on first only interleaves the next guest with this one).
      this.#host.tails.appended(streamId, sent);
      hold.committed(sent);
      return finish(sent);
    }
    this.#handedOn = true;
    this.#host.tails.handOn(
      streamId,
      list.map((event, i) => ({ ...event, streamId, sequence: PENDING, revision: first + BigInt(i), recordedAt: 0n })),
    );
    const confirmed = sent.then(
      (recorded) => {
        this.#host.tails.appended(streamId, recorded);
        hold.committed(recorded);
        return finish(recorded);
      },
      (error: unknown) => {
        this.#host.tails.drop(streamId);
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
    const last = !(hold.chainOpen() && this.#host.turns.waiting(streamId) > 0);
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
    const held = await this.#host.backend.acquire(this.#streamId, 2 * this.#host.backend.ttlMs, TAIL_EVENTS);
    if (held === undefined) throw StorageFailure.unavailable('the stream lease has ended');
    this.#hold = this.#host.hold(this.#streamId, held);
  }

  #end(expired = false): void {
    if (this.#ended) return;
    this.#ended = true;
    clearTimeout(this.#expiry);
    if (this.#handedOn) return;
    const hold = this.#hold;
    if (hold.released) return this.#turn.leave();
    if (!expired && hold.chainOpen() && this.#host.turns.waiting(this.#streamId) > 0) return this.#passOn(hold);
    // The next local writer goes to the store once it no longer sees this turn there.
    void hold.release().finally(() => this.#turn.leave());
  }

  /** The store lease goes on to the next local writer without a release (one more turn of the chain). */
  #passOn(hold: Hold): void {
    hold.turns++;
    this.#host.parked.set(this.#streamId, hold);
    this.#turn.leave();
    // The waiter may have given up meanwhile: nobody took the turn, so release what was parked.
    if (!this.#host.turns.held(this.#streamId)) this.#host.releaseParked(this.#streamId);
  }

  [Symbol.dispose](): void {
    this.#end();
  }
}
