/**
 * The counter read-model document `counter_views/global`: {count, revision, last_sequence}.
 * The projection writes it; the aggregate loader uses it as a snapshot and replays only the tail.
 */
import { AppError } from '../../errors.ts';
import type { DocumentChange, Platform, RecordedEvent } from '../../platform/ports.ts';
import { evolve } from '../domain/counter.ts';
import { isInt32 } from '../domain/int32.ts';
import { decodeEvent } from './event-codec.ts';

export const COUNTER_VIEWS_COLLECTION = 'counter_views';
export const COUNTER_VIEW_DOCUMENT_ID = 'global';

export interface CounterSnapshot {
  count: number;
  /** stream revision the count includes (0 = nothing) */
  revision: number;
  /** global sequence of that event (0 = nothing) */
  last_sequence: number;
}

export const EMPTY_SNAPSHOT: CounterSnapshot = { count: 0, revision: 0, last_sequence: 0 };

/** The stored snapshot, or undefined when none exists yet. Throws AppError('internal') if malformed. */
export function readSnapshot(platform: Platform): CounterSnapshot | undefined {
  const document = platform.projections.getDocument({ collection: COUNTER_VIEWS_COLLECTION, id: COUNTER_VIEW_DOCUMENT_ID });
  return document === undefined ? undefined : parseSnapshot(document.body);
}

export function parseSnapshot(body: string): CounterSnapshot {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    throw new AppError('internal', undefined, { cause: error });
  }
  const { count, revision, last_sequence } = (value ?? {}) as Record<string, unknown>;
  if (!isInt32(count as number) || !isCounter(revision) || !isCounter(last_sequence)) {
    throw new AppError('internal', undefined, { cause: new Error('counter snapshot is malformed') });
  }
  return { count: count as number, revision, last_sequence };
}

/**
 * Folds one counter event into the snapshot. Events the snapshot already includes are skipped
 * (a concurrent worker may have moved it ahead); a gap means the snapshot is corrupt.
 */
export function applyToSnapshot(snapshot: CounterSnapshot, event: RecordedEvent): CounterSnapshot {
  const revision = Number(event.revision);
  if (revision <= snapshot.revision) return snapshot;
  if (revision !== snapshot.revision + 1) {
    throw new AppError('internal', undefined, { cause: new Error(`counter snapshot at ${snapshot.revision} cannot apply revision ${revision}`) });
  }
  const state = evolve({ value: snapshot.count }, decodeEvent(event));
  return { count: state.value, revision, last_sequence: Number(event.sequence) };
}

export function snapshotChange(snapshot: CounterSnapshot): DocumentChange {
  return {
    tag: 'put',
    val: { collection: COUNTER_VIEWS_COLLECTION, id: COUNTER_VIEW_DOCUMENT_ID, body: JSON.stringify(snapshot) },
  };
}

function isCounter(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}
