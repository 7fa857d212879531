/**
 * Group commit for one store lease. Its appends go to the store one at a time, in the order they
 * were sent. While one is in flight, the appends queued behind it (each decided on the events of
 * the one before, handed on by `append-and-end`) wait, then go out together as ONE append: their
 * events concatenated, expecting the first one's revision. One round trip and one commit for the
 * lot instead of one each, and the same outcome: each queued append expects exactly the revision
 * the one before it leaves, so the batch holds where each would have held in turn, and fails where
 * the first would have failed, which fails every one decided on it anyway.
 *
 * If an append fails, the appends queued behind it are refused (`conflict`) without being sent:
 * they were decided on events that did not commit. The queue holds at most the turns of one chain
 * of the lease (host/app-platform/lease-imports.ts, MAX_HANDOFFS).
 */
import { type Awaitable, StorageFailure } from '../platform-answer.ts';
import type { ExpectedRevision, NewEvent, RecordedEvent } from '../../src/contract/wit/interfaces/app-platform-event-store.js';

/** Sends one append on the lease; `release` ends the lease in the same round trip. */
export type SendAppend = (expected: ExpectedRevision, events: NewEvent[], release: boolean) => Awaitable<RecordedEvent[]>;

interface Queued {
  expected: ExpectedRevision;
  events: NewEvent[];
  release: boolean;
  resolve(recorded: RecordedEvent[]): void;
  reject(error: unknown): void;
}

export class AppendQueue {
  readonly #streamId: string;
  readonly #send: SendAppend;
  /** Ends the lease when an append that was to end it is refused unsent. */
  readonly #release: () => void;
  /** Told of each store append sent and how many of the lease's appends it carries (metrics). */
  readonly #onSent: ((appends: number) => void) | undefined;
  #inFlight: Promise<void> | undefined;
  #queued: Queued[] = [];

  constructor(streamId: string, send: SendAppend, release: () => void, onSent?: (appends: number) => void) {
    this.#streamId = streamId;
    this.#send = send;
    this.#release = release;
    this.#onSent = onSent;
  }

  /** An append is in flight or queued. */
  get busy(): boolean {
    return this.#inFlight !== undefined;
  }

  /** Sends at once when nothing is in flight; otherwise queues behind it and goes out with the others queued there. */
  add(expected: ExpectedRevision, events: NewEvent[], release: boolean): Awaitable<RecordedEvent[]> {
    if (this.#inFlight === undefined) {
      this.#onSent?.(1);
      const result = this.#send(expected, events, release);
      if (!(result instanceof Promise)) return result; // a synchronous store: nothing stays in flight
      this.#track(result, expected);
      return result;
    }
    return new Promise((resolve, reject) => this.#queued.push({ expected, events, release, resolve, reject }));
  }

  /** Resolves once nothing is in flight or queued (whatever the outcome). */
  async settled(): Promise<void> {
    while (this.#inFlight !== undefined) await this.#inFlight;
  }

  #track(result: Promise<RecordedEvent[]>, expected: ExpectedRevision): void {
    const flight = result.then(
      () => this.#next(),
      (error: unknown) => this.#refuseQueued(leftAt(error, expected)),
    );
    this.#inFlight = flight;
  }

  /** The batch in flight committed: the appends queued behind it go out as one. */
  #next(): void {
    const batch = this.#queued.splice(0, contiguousPrefix(this.#queued));
    if (batch.length === 0) {
      this.#inFlight = undefined;
      return;
    }
    const first = batch[0]!;
    const last = batch.at(-1)!;
    this.#onSent?.(batch.length);
    let result: Promise<RecordedEvent[]>;
    try {
      result = Promise.resolve(
        this.#send(
          first.expected,
          batch.flatMap((q) => q.events),
          last.release,
        ),
      );
    } catch (error) {
      result = Promise.reject(error);
    }
    result.then(
      (recorded) => {
        let at = 0;
        for (const q of batch) {
          q.resolve(recorded.slice(at, at + q.events.length));
          at += q.events.length;
        }
      },
      (error: unknown) => {
        for (const q of batch) q.reject(error);
      },
    );
    this.#track(result, first.expected);
  }

  /** The batch in flight failed: everything queued behind it was decided on it. */
  #refuseQueued(left: bigint): void {
    const refused = this.#queued.splice(0);
    this.#inFlight = undefined;
    for (const q of refused) q.reject(StorageFailure.conflict(this.#streamId, q.expected, left));
    if (refused.some((q) => q.release)) this.#release();
  }
}

/**
 * How many of the queued appends can go out as one: each must expect exactly the revision the one
 * before leaves, and one that ends the lease ends the batch.
 */
function contiguousPrefix(queued: readonly Queued[]): number {
  let count = 0;
  let next = startOf(queued[0]?.expected);
  for (const q of queued) {
    const start = startOf(q.expected);
    if (next === undefined || start !== next) return Math.max(count, 1);
    count++;
    if (q.release) return count;
    next = start + BigInt(q.events.length);
  }
  return count;
}

/** The revision an exact or no-stream expectation names; undefined for `any` and `stream-exists`. */
function startOf(expected: ExpectedRevision | undefined): bigint | undefined {
  if (expected?.tag === 'exact') return expected.val;
  if (expected?.tag === 'no-stream') return 0n;
  return undefined;
}

/** The revision the stream stays at after a failed append: the store's answer to a conflict, else what the append expected. */
function leftAt(error: unknown, expected: ExpectedRevision): bigint {
  if (error instanceof StorageFailure && error.payload.tag === 'conflict') return error.payload.val.actual;
  return startOf(expected) ?? 0n;
}
