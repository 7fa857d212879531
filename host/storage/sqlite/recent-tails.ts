/**
 * The newest events of recently leased streams, kept between leases so that taking a lease does
 * not read them again when nobody wrote meanwhile. Checked on every use against the stream's
 * newest row: the same revision and the same global sequence (never reused, even after a stream
 * is removed and written again) mean the same events, since recorded events never change.
 * A lease's appends extend the kept tail; any other write shows as a different newest row.
 */
import type { StreamHead } from '../stream-heads.ts';
import type { RecordedEvent } from '../types.ts';
import type { ReadStream } from './read-stream.ts';

/** Streams whose tails are kept; the oldest kept is forgotten past it. */
const MAX_STREAMS = 256;

export class RecentTails {
  readonly #readStream: ReadStream;
  readonly #heads: (streamIds: readonly string[]) => StreamHead[];
  /** Newest first, contiguous, at most the longest tail asked for. */
  readonly #tails = new Map<string, { events: RecordedEvent[]; size: number }>();

  /** `heads`: the backend's stream heads (stream-heads.ts), one index seek per stream. */
  constructor(readStream: ReadStream, heads: (streamIds: readonly string[]) => StreamHead[]) {
    this.#readStream = readStream;
    this.#heads = heads;
  }

  /** The stream's newest `limit` events, newest first. */
  read(streamId: string, limit: number): RecordedEvent[] {
    const kept = this.#tails.get(streamId);
    if (kept !== undefined && kept.size >= limit && this.#current(streamId, kept.events[0])) return kept.events.slice(0, limit);
    const events = this.#readStream(streamId, { direction: 'backward', limit });
    this.#keep(streamId, events, limit);
    return events;
  }

  /** A lease's append recorded `recorded` (in revision order) on top of the kept tail. */
  appended(streamId: string, recorded: readonly RecordedEvent[]): void {
    const kept = this.#tails.get(streamId);
    if (kept === undefined || recorded.length === 0) return;
    const head = kept.events[0]?.revision ?? 0n;
    if (recorded[0]!.revision !== head + 1n) {
      this.#tails.delete(streamId);
      return;
    }
    this.#keep(streamId, [...recorded].reverse().concat(kept.events).slice(0, kept.size), kept.size);
  }

  /** Whether `newest` (undefined: no events) is still the stream's newest row (no events: sequence 0). */
  #current(streamId: string, newest: RecordedEvent | undefined): boolean {
    const head = this.#heads([streamId])[0]!;
    return head.revision === (newest?.revision ?? 0n) && head.sequence === (newest?.sequence ?? 0n);
  }

  #keep(streamId: string, events: RecordedEvent[], size: number): void {
    this.#tails.delete(streamId);
    this.#tails.set(streamId, { events, size });
    if (this.#tails.size > MAX_STREAMS) this.#tails.delete(this.#tails.keys().next().value!);
  }
}
