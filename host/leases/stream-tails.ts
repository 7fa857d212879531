/**
 * Stream tails: the newest events of each stream this host holds the store lease for. While the
 * host holds it, no writer that takes leases can append to the stream, so reads of the stream's
 * newest events are answered here, from what the lease's acquire returned and what its appends
 * recorded, without a store round trip (a command's load costs nothing under its turn).
 *
 * Correctness does not rest on this: a writer that bypasses leases is caught by the append's
 * revision check, whose failure drops the tail (the retry takes a fresh lease and a fresh tail).
 * The host's own plain appends to the stream drop it too (host/app-platform/storage-imports.ts).
 *
 * A turn that ends with `append-and-end` hands the stream on before its append is confirmed: its
 * events sit on top of the tail as pending (sequence 0) until the append's result replaces them.
 * The next writer of the chain decides on them (`readNewest`); every other read sees only what is
 * committed (`read`).
 */
import type { ReadStreamOptions, RecordedEvent } from '../../src/contract/wit/interfaces/app-platform-event-store.js';

/**
 * How many of the newest events a lease's acquire fetches and the tail keeps: enough for a writer
 * that reads the newest page of its stream, or reads forward from a position up to that many
 * events back (a snapshot's revision, say), to be answered from the tail.
 */
export const TAIL_EVENTS = 64;

/** Largest read limit a backend accepts (errors.ts checkLimit): larger ones go to the store and fail there. */
const MAX_LIMIT = 1000;

export class StreamTails {
  /**
   * Newest first, revisions contiguous; complete down to revision 1 or the newest TAIL_EVENTS.
   * On top may be events handed on while their append is being committed (`handOn`): they carry
   * sequence 0, which no committed event has (sequences start at 1).
   */
  readonly #tails = new Map<string, RecordedEvent[]>();

  /** The lease on `streamId` was taken; `newest` are its newest events (newest first). */
  set(streamId: string, newest: readonly RecordedEvent[]): void {
    if (contiguous(newest)) this.#tails.set(streamId, newest.slice(0, TAIL_EVENTS));
    else this.#tails.delete(streamId);
  }

  /** The lease ended, or the stream may have changed behind the tail's back. */
  drop(streamId: string): void {
    this.#tails.delete(streamId);
  }

  /** The newest revision, pending events included; undefined without a tail. */
  head(streamId: string): bigint | undefined {
    const tail = this.#tails.get(streamId);
    return tail === undefined ? undefined : (tail[0]?.revision ?? 0n);
  }

  /**
   * A turn ended with its append sent, not yet confirmed: `sent` (in revision order, sequence 0)
   * go on top, seen by `readNewest` only, until `appended` confirms them. False (and no tail)
   * unless they continue the tail.
   */
  handOn(streamId: string, sent: readonly RecordedEvent[]): boolean {
    const tail = this.#tails.get(streamId);
    const head = tail?.[0]?.revision ?? 0n;
    if (tail === undefined || sent.length === 0 || sent[0]!.revision !== head + 1n || sent.some((e) => e.sequence !== PENDING)) {
      this.drop(streamId);
      return false;
    }
    this.set(streamId, [...sent].reverse().concat(tail));
    return true;
  }

  /** The lease's append recorded `recorded` (in revision order): new on top, or confirming pending ones. */
  appended(streamId: string, recorded: readonly RecordedEvent[]): void {
    const tail = this.#tails.get(streamId);
    if (tail === undefined || recorded.length === 0) return;
    const pending = tail.filter((e) => e.sequence === PENDING);
    if (pending.length === 0) {
      const head = tail[0]?.revision ?? 0n;
      if (recorded[0]!.revision !== head + 1n) return this.drop(streamId);
      return this.set(streamId, [...recorded].reverse().concat(tail));
    }
    // Appends are confirmed in the order they were sent: these must be the lowest pending ones.
    const lowest = pending.at(-1)!.revision;
    if (recorded[0]!.revision !== lowest || recorded.length > pending.length) return this.drop(streamId);
    const byRevision = new Map(recorded.map((e) => [e.revision, e]));
    this.#tails.set(
      streamId,
      tail.map((e) => byRevision.get(e.revision) ?? e),
    );
  }

  /** The answer to readStream from the committed events of the tail, or undefined when they do not cover it. */
  read(streamId: string, options: ReadStreamOptions): RecordedEvent[] | undefined {
    const tail = this.#tails.get(streamId);
    if (tail === undefined) return undefined;
    const firstCommitted = tail.findIndex((e) => e.sequence !== PENDING);
    // Only pending events: what is committed below them is not in the tail.
    if (firstCommitted < 0 && tail.length > 0) return undefined;
    return answer(tail.slice(firstCommitted), options);
  }

  /** The newest `limit` events, pending ones included (lease `read-newest`), or undefined when the tail does not cover them. */
  readNewest(streamId: string, limit: number): RecordedEvent[] | undefined {
    const tail = this.#tails.get(streamId);
    return tail === undefined ? undefined : answer(tail, { direction: 'backward', limit });
  }
}

/** Sequence of an event handed on before its append is confirmed. */
export const PENDING = 0n;

/** readStream over `tail` (newest first, contiguous), or undefined when it does not cover the range. */
function answer(tail: readonly RecordedEvent[], options: ReadStreamOptions): RecordedEvent[] | undefined {
  const { direction, fromRevision, limit } = options;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) return undefined;
  if (direction !== 'forward' && direction !== 'backward') return undefined;
  const head = tail[0]?.revision ?? 0n;
  // An empty tail of a stream with events cannot happen (set keeps at least one); empty = no stream.
  const lowest = tail.at(-1)?.revision ?? 1n;
  if (direction === 'backward') {
    const start = fromRevision === undefined || fromRevision > head ? head : fromRevision;
    if (start < 1n) return [];
    const low = start - BigInt(limit) + 1n;
    if (low < lowest && lowest > 1n) return undefined;
    return tail.filter((e) => e.revision <= start && e.revision >= low);
  }
  const from = fromRevision === undefined || fromRevision < 1n ? 1n : fromRevision;
  if (from > head) return [];
  if (from < lowest) return undefined;
  const high = from + BigInt(limit) - 1n;
  return tail.filter((e) => e.revision >= from && e.revision <= high).reverse();
}

/** Newest first, each one revision below the one before. */
function contiguous(events: readonly RecordedEvent[]): boolean {
  return events.every((e, i) => i === 0 || e.revision === events[i - 1]!.revision - 1n);
}
