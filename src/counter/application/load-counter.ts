/**
 * Loads the counter aggregate: the projection's snapshot (if any) plus the stream tail after it.
 * A broken snapshot is only a cache miss: it is logged and the whole stream is replayed.
 */
import { AppError } from '../../errors.ts';
import type { Platform } from '../../platform/ports.ts';
import { COUNTER_STREAM_ID, evolve, initialState, type CounterState } from '../domain/counter.ts';
import { decodeEvent } from './event-codec.ts';
import { failureDetail } from './failure-detail.ts';
import { readSnapshot, type CounterSnapshot } from './snapshot.ts';

/** Largest page the event store serves. */
const PAGE_SIZE = 1000;

export interface LoadedCounter {
  state: CounterState;
  /** stream revision `state` includes; 0 = no stream */
  revision: bigint;
}

export const EMPTY_COUNTER: LoadedCounter = { state: initialState, revision: 0n };

export function loadCounter(platform: Platform): LoadedCounter {
  const snapshot = snapshotOrNothing(platform);
  const start = snapshot ? { state: { value: snapshot.count }, revision: BigInt(snapshot.revision) } : EMPTY_COUNTER;
  return replayFrom(platform, start);
}

/** Applies every stream event after `start.revision`. `replayFrom(p, EMPTY_COUNTER)` is a full replay. */
export function replayFrom(platform: Platform, start: LoadedCounter): LoadedCounter {
  let { state, revision } = start;
  for (;;) {
    const page = platform.events.readStream(COUNTER_STREAM_ID, {
      direction: 'forward',
      fromRevision: revision + 1n,
      limit: PAGE_SIZE,
    });
    for (const event of page) {
      if (event.revision !== revision + 1n) {
        throw new AppError('internal', undefined, { cause: new Error(`counter stream gap after revision ${revision}`) });
      }
      state = evolve(state, decodeEvent(event));
      revision = event.revision;
    }
    if (page.length < PAGE_SIZE) return { state, revision };
  }
}

function snapshotOrNothing(platform: Platform): CounterSnapshot | undefined {
  try {
    return readSnapshot(platform);
  } catch (error) {
    // Store failures must surface; only a malformed document falls back to a full replay.
    if (!(error instanceof AppError)) throw error;
    platform.logger.log('warn', 'counter snapshot unreadable, replaying the stream', {
      code: 'snapshot_invalid',
      detail: failureDetail(error),
    });
    return undefined;
  }
}
