/**
 * The counter's current state and newest events as a command loads them: the stream's newest
 * events its turn's lease came with (the count after the newest event is that event's own,
 * read-model.ts), answered from the host's stream tail (host/leases/stream-tails.ts), so a
 * command's load costs neither a store round trip nor a call of its own. (The view query reads the projection: get-view.ts.)
 * A writer may see the events of the turn before it still pending (sequence 0): it decides on
 * them; once its own append is committed, so are they, and the lease's answer carries them
 * (`afterCommit`), so a command's view needs no read after its append.
 */
import { PENDING_SEQUENCE, type Platform, type RecordedEvent } from '../../platform/ports.ts';
import { COUNTER_STREAM_ID, initialState, type CounterState } from '../domain/counter.ts';
import { modelAfter } from './read-model.ts';
import { LATEST_EVENTS_LIMIT } from './view.ts';

export interface KnownCounter {
  state: CounterState;
  /** stream revision `state` includes; 0 = no stream */
  revision: bigint;
  /** the newest events up to `revision`, newest first, at most LATEST_EVENTS_LIMIT */
  latest: RecordedEvent[];
}

const EMPTY: KnownCounter = { state: initialState, revision: 0n, latest: [] };

/** The counter after `newest`, the stream's newest events (newest first). An undecodable event is `internal`. */
export function counterOf(newest: readonly RecordedEvent[]): KnownCounter {
  const head = newest[0];
  if (head === undefined) return EMPTY;
  return { state: { value: modelAfter(head).count }, revision: head.revision, latest: newest.slice(0, LATEST_EVENTS_LIMIT) };
}

/**
 * What a commit on top of `base` leads to, without reading the store again: `committed` is the
 * lease's answer (the appended events newest first, then committed events before them). Events
 * `base` read pending are replaced by their committed versions from it; one it does not hold is
 * read again.
 */
export function afterCommit(platform: Platform, base: KnownCounter, state: CounterState, committed: readonly RecordedEvent[]): KnownCounter {
  const head = committed[0];
  if (head === undefined) return base;
  const byRevision = new Map(base.latest.map((e) => [e.revision, e]));
  for (const event of committed) byRevision.set(event.revision, event);
  const merged = [...byRevision.values()].sort((a, b) => (a.revision > b.revision ? -1 : 1)).slice(0, LATEST_EVENTS_LIMIT);
  const latest = merged.some((e) => e.sequence === PENDING_SEQUENCE) ? newestUpTo(platform, head.revision, LATEST_EVENTS_LIMIT) : merged;
  return { state, revision: head.revision, latest };
}

function newestUpTo(platform: Platform, revision: bigint | undefined, limit: number): RecordedEvent[] {
  return platform.events.readStream(COUNTER_STREAM_ID, { direction: 'backward', limit, ...(revision === undefined ? {} : { fromRevision: revision }) });
}
