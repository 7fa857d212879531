/**
 * The counter's current state and newest events, remembered per guest instance.
 *
 * Every use is checked against the store with one read (the stream's newest events, backwards):
 * if they continue what the instance remembers, the state advances over just those events. An
 * instance further behind (under load every other instance committed since its last use) catches
 * up with one more read reaching back to what it remembers, which a host holding the stream's
 * lease answers from its tail (host/leases/stream-tails.ts). Anything else (first use, more than
 * CATCH_UP_LIMIT events behind, a store that was wiped and refilled) falls back to the full load
 * (snapshot + the events after it: two reads or more). The stream is append-only, so an event seen at a
 * revision with the same sequence, type, payload and timestamp is the same event. A GET view costs one storage
 * call instead of three, and a command's view needs no read after its append.
 */
import type { Platform, RecordedEvent } from '../../platform/ports.ts';
import { COUNTER_STREAM_ID, evolve, initialState, type CounterState } from '../domain/counter.ts';
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

/** One per guest instance (the app is built once per instance). */
export class CounterMemory {
  known: KnownCounter | undefined;
}

const EMPTY: KnownCounter = { state: initialState, revision: 0n, latest: [] };

/** Most events an instance catches up over with one read; beyond, the snapshot is the shorter way. */
export const CATCH_UP_LIMIT = 256n;

/** Reads the current counter, using and refreshing `memory` when given. Store failures propagate. */
export function currentCounter(platform: Platform, memory?: CounterMemory): KnownCounter {
  const newest = platform.events.readStream(COUNTER_STREAM_ID, { direction: 'backward', limit: LATEST_EVENTS_LIMIT });
  const head = newest[0];
  const current = head === undefined ? EMPTY : (advance(memory?.known, newest) ?? catchUp(platform, memory?.known, head) ?? fullLoad(platform, newest));
  if (memory) memory.known = current;
  return current;
}

/** What a commit of `recorded` on top of `base` leads to, without reading the store again. */
export function afterCommit(base: KnownCounter, state: CounterState, recorded: readonly RecordedEvent[]): KnownCounter {
  const last = recorded.at(-1);
  if (last === undefined) return base;
  const latest = [...recorded].reverse().concat(base.latest).slice(0, LATEST_EVENTS_LIMIT);
  return { state, revision: last.revision, latest };
}

/** `known` moved forward over the new events in `newest`, or undefined if `newest` does not continue it. */
function advance(known: KnownCounter | undefined, newest: RecordedEvent[]): KnownCounter | undefined {
  if (known === undefined) return undefined;
  const fresh = newest.filter((e) => e.revision > known.revision).reverse();
  const anchor = newest.find((e) => e.revision === known.revision);
  const continues = known.revision === 0n ? newest.at(-1)?.revision === 1n : anchor !== undefined && sameEvent(anchor, known.latest[0]);
  if (!continues) return undefined;
  let state = known.state;
  for (const event of fresh) state = evolve(state, decodeEvent(event));
  return { state, revision: newest[0]!.revision, latest: newest.slice(0, LATEST_EVENTS_LIMIT) };
}

/** `known` advanced by one read reaching back to its revision, when it is at most CATCH_UP_LIMIT behind `head`. */
function catchUp(platform: Platform, known: KnownCounter | undefined, head: RecordedEvent): KnownCounter | undefined {
  if (known === undefined || known.revision === 0n || known.revision >= head.revision) return undefined;
  const behind = head.revision - known.revision;
  if (behind > CATCH_UP_LIMIT) return undefined;
  const page = platform.events.readStream(COUNTER_STREAM_ID, { direction: 'backward', limit: Number(behind) + 1 });
  return advance(known, page);
}

function fullLoad(platform: Platform, newest: RecordedEvent[]): KnownCounter {
  const { state, revision } = loadCounter(platform);
  // An append may have landed between the two reads: keep the events consistent with the count.
  const latest =
    newest[0]?.revision === revision ? newest : platform.events.readStream(COUNTER_STREAM_ID, { direction: 'backward', fromRevision: revision, limit: LATEST_EVENTS_LIMIT });
  return { state, revision, latest };
}

function sameEvent(a: RecordedEvent, b: RecordedEvent | undefined): boolean {
  return b !== undefined && a.sequence === b.sequence && a.revision === b.revision && a.recordedAt === b.recordedAt && a.eventType === b.eventType && a.payload === b.payload;
}
