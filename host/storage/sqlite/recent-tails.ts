/**
 * The newest events of recently leased streams, kept between leases so that taking a lease does
 * not read them again when nobody wrote meanwhile. Checked on every use against the stream's
 * newest row: the same revision and the same global sequence (never reused, even after a stream
 * is removed and written again) mean the same events, since recorded events never change.
 * A lease's appends extend the kept tail; any other write shows as a different newest row.
 */
import type { DatabaseSync } from 'node:sqlite';
import type { RecordedEvent } from '../types.ts';
import type { ReadStream } from './read-stream.ts';
import { int, type Row } from '../sql/values.ts';

/** Streams whose tails are kept; the oldest kept is forgotten past it. */
const MAX_STREAMS = 256;

export class RecentTails {
  readonly #readStream: ReadStream;
  readonly #newest;
  /** Newest first, contiguous, at most the longest tail asked for. */
  readonly #tails = new Map<string, { events: RecordedEvent[]; size: number }>();

  constructor(db: DatabaseSync, readStream: ReadStream) {
    this.#readStream = readStream;
    this.#newest = db.prepare('SELECT revision, sequence FROM app_events WHERE stream_id = ? ORDER BY revision DESC LIMIT 1');
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

  /** Whether `newest` (undefined: no events) is still the stream's newest row. */
  #current(streamId: string, newest: RecordedEvent | undefined): boolean {
    const row = this.#newest.get(streamId) as Row | undefined;
    if (row === undefined || newest === undefined) return row === undefined && newest === undefined;
    return int(row, 'revision') === newest.revision && int(row, 'sequence') === newest.sequence;
  }

  #keep(streamId: string, events: RecordedEvent[], size: number): void {
    this.#tails.delete(streamId);
    this.#tails.set(streamId, { events, size });
    if (this.#tails.size > MAX_STREAMS) this.#tails.delete(this.#tails.keys().next().value!);
  }
}
