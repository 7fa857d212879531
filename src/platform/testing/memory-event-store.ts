/**
 * In-memory EventStore with the WIT semantics: atomic appends under an ExpectedRevision,
 * 1-based stream revisions, one global sequence (gaps only where streams were removed), reads in
 * both directions, per-type totals that outlive removed streams and truncated events.
 */
import { StoreError } from '../../errors.ts';
import type { EventStore, ExpectedRevision, NewEvent, ReadStreamOptions, RecordedEvent, TypeCount } from '../ports.ts';
import { revisionMatches } from '../../contract/revision.ts';
import { checkLimit, checkName } from './checks.ts';
import type { Faults } from './faults.ts';

export class MemoryEventStore implements EventStore {
  /** Every event in global order: index = sequence - 1; undefined where a stream was removed. */
  readonly #all: Array<RecordedEvent | undefined> = [];
  /** Events appended per type, kept when their stream is removed. */
  readonly #counts = new Map<string, bigint>();
  /** A stream's events kept, oldest first; `base` revisions before them were truncated. */
  readonly #streams = new Map<string, { base: bigint; events: RecordedEvent[] }>();
  readonly #faults: Faults;
  readonly #now: () => number;

  constructor(faults: Faults, now: () => number) {
    this.#faults = faults;
    this.#now = now;
  }

  append(streamId: string, expected: ExpectedRevision, events: NewEvent[]): RecordedEvent[] {
    this.#faults.enter('append');
    checkName('stream id', streamId);
    // Payload and metadata are stored as given, byte for byte, as every backend does (the storage contract).
    for (const event of events) checkName('event type', event.eventType);
    const stream = this.#streams.get(streamId) ?? { base: 0n, events: [] };
    const actual = stream.base + BigInt(stream.events.length);
    if (!revisionMatches(expected, actual)) {
      throw new StoreError('conflict', `revision conflict on ${streamId}: expected ${describe(expected)}, actual ${actual}`);
    }
    // An empty batch checks the expectation and writes nothing.
    if (events.length === 0) return [];
    const recordedAt = BigInt(Math.trunc(this.#now()));
    const recorded = events.map(
      (event, index): RecordedEvent => ({
        sequence: BigInt(this.#all.length + index + 1),
        streamId,
        revision: actual + BigInt(index + 1),
        eventType: event.eventType,
        payload: event.payload,
        metadata: event.metadata,
        recordedAt,
      }),
    );
    this.#all.push(...recorded);
    for (const event of recorded) this.#counts.set(event.eventType, (this.#counts.get(event.eventType) ?? 0n) + 1n);
    this.#streams.set(streamId, { base: stream.base, events: [...stream.events, ...recorded] });
    return recorded.map(copy);
  }

  readStream(streamId: string, options: ReadStreamOptions): RecordedEvent[] {
    this.#faults.enter('readStream');
    checkName('stream id', streamId);
    checkLimit(options.limit);
    const { base, events: stream } = this.#streams.get(streamId) ?? { base: 0n, events: [] };
    // Positions in `stream` (index = revision - base - 1).
    const from = options.fromRevision === undefined ? undefined : Number(options.fromRevision - base);
    if (options.direction === 'forward') {
      const start = from === undefined ? 0 : Math.max(0, from - 1);
      return stream.slice(start, start + options.limit).map(copy);
    }
    // Backward: from `from` (inclusive) or the end, newest first.
    const end = from === undefined ? stream.length : Math.min(stream.length, from);
    return stream
      .slice(Math.max(0, end - options.limit), Math.max(0, end))
      .reverse()
      .map(copy);
  }

  streamRevision(streamId: string): bigint {
    this.#faults.enter('streamRevision');
    checkName('stream id', streamId);
    const stream = this.#streams.get(streamId);
    return stream === undefined ? 0n : stream.base + BigInt(stream.events.length);
  }

  readAll(afterSequence: bigint, limit: number): RecordedEvent[] {
    this.#faults.enter('readAll');
    checkLimit(limit);
    const start = Number(afterSequence < 0n ? 0n : afterSequence);
    const page: RecordedEvent[] = [];
    for (let index = start; index < this.#all.length && page.length < limit; index += 1) {
      const event = this.#all[index];
      if (event !== undefined) page.push(copy(event));
    }
    return page;
  }

  headSequence(): bigint {
    this.#faults.enter('headSequence');
    return BigInt(this.#all.length);
  }

  countByType(typePrefix: string): TypeCount[] {
    this.#faults.enter('countByType');
    return [...this.#counts.entries()]
      .filter(([eventType]) => eventType.startsWith(typePrefix))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([eventType, count]) => ({ eventType, count }));
  }

  removeStream(streamId: string, expected: ExpectedRevision): bigint {
    this.#faults.enter('removeStream');
    checkName('stream id', streamId);
    const current = this.#streams.get(streamId);
    const actual = current === undefined ? 0n : current.base + BigInt(current.events.length);
    if (!revisionMatches(expected, actual)) {
      throw new StoreError('conflict', `revision conflict on ${streamId}: expected ${describe(expected)}, actual ${actual}`);
    }
    const stream = current?.events ?? [];
    for (const event of stream) this.#all[Number(event.sequence) - 1] = undefined;
    this.#streams.delete(streamId);
    return BigInt(stream.length);
  }

  truncateBefore(streamId: string, revision: bigint): bigint {
    this.#faults.enter('truncateBefore');
    checkName('stream id', streamId);
    const stream = this.#streams.get(streamId);
    if (stream === undefined) return 0n;
    // The newest event always stays.
    const gone = stream.events.slice(0, Math.max(0, Math.min(stream.events.length - 1, Number(revision - stream.base) - 1)));
    for (const event of gone) this.#all[Number(event.sequence) - 1] = undefined;
    this.#streams.set(streamId, { base: stream.base + BigInt(gone.length), events: stream.events.slice(gone.length) });
    return BigInt(gone.length);
  }
}

function copy(event: RecordedEvent): RecordedEvent {
  return { ...event };
}

function describe(expected: ExpectedRevision): string {
  return expected.tag === 'exact' ? `exact(${expected.val})` : expected.tag;
}
