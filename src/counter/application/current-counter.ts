/**
 * The counter's current state and newest events, in one read of the stream's newest events
 * (backwards): every increment and decrement records the value it left the counter at, and a
 * reset implies 0 (domain/counter.ts `stateAfter`), so the newest event alone gives the state.
 * Under its turn a writer's read is answered from the host's stream tail (host/leases/
 * stream-tails.ts), so a command's load costs no store round trip; a GET view costs one.
 *
 * A stream whose newest event predates `value` (written by an earlier version) is loaded the long
 * way, from the projection's snapshot plus the events after it, until the next command records a
 * value. A command's view needs no read after its append (`afterCommit`).
 */
import type { Platform, RecordedEvent } from '../../platform/ports.ts';
import { COUNTER_STREAM_ID, initialState, stateAfter, type CounterState } from '../domain/counter.ts';
import { decodeEvent } from './event-codec.ts';
import { loadCounter } from './load-counter.ts';
import { LATEST_EVENTS_LIMIT } from './view.ts';

export interface KnownCounter {
  state: CounterState;
  /** stream revision `state` includes; 0 = no stream */
  revision: bigint;
  /** the newest events up to `revision`, newest first, at most LATEST_EVENTS_LIMIT */
  latest: RecordedEvent[];
}

const EMPTY: KnownCounter = { state: initialState, revision: 0n, latest: [] };

/** Reads the current counter. Store failures propagate; an undecodable event is `internal`. */
export function currentCounter(platform: Platform): KnownCounter {
  const newest = platform.events.readStream(COUNTER_STREAM_ID, { direction: 'backward', limit: LATEST_EVENTS_LIMIT });
  const head = newest[0];
  if (head === undefined) return EMPTY;
  const state = stateAfter(decodeEvent(head));
  return state === undefined ? fullLoad(platform, newest) : { state, revision: head.revision, latest: newest };
}

/** What a commit of `recorded` on top of `base` leads to, without reading the store again. */
export function afterCommit(base: KnownCounter, state: CounterState, recorded: readonly RecordedEvent[]): KnownCounter {
  const last = recorded.at(-1);
  if (last === undefined) return base;
  const latest = [...recorded].reverse().concat(base.latest).slice(0, LATEST_EVENTS_LIMIT);
  return { state, revision: last.revision, latest };
}

/** A newest event without `value`: the snapshot and the events after it. */
function fullLoad(platform: Platform, newest: RecordedEvent[]): KnownCounter {
  const { state, revision } = loadCounter(platform);
  // An append may have landed between the two reads: keep the events consistent with the count.
  const latest =
    newest[0]?.revision === revision ? newest : platform.events.readStream(COUNTER_STREAM_ID, { direction: 'backward', fromRevision: revision, limit: LATEST_EVENTS_LIMIT });
  return { state, revision, latest };
}
