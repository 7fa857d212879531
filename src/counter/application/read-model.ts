/**
 * The counter's read model: the count, the stream revision it includes and that event's global
 * sequence. The view is this model caught up with the stream, and the counter projection keeps it
 * at its checkpoint in the document `counter_views/global` (projection.ts).
 *
 * An increment or decrement records the count it left and a reset implies 0, so the model after
 * an event is that event's own (`modelAfter`): catching the model up needs only the newest event,
 * and the view reads the stream's newest events and nothing else (one store call,
 * current-counter.ts). The projection folds the same way, checking that each event follows on.
 */
import { AppError } from '../../errors.ts';
import type { DocumentChange, Platform, RecordedEvent } from '../../platform/ports.ts';
import { firstShape, readDocumentBody, writeDocumentBody } from '../../platform/schema-version.ts';
import { evolve, initialState } from '../domain/counter.ts';
import { isInt32 } from '../domain/int32.ts';
import { decodeEvent } from './event-codec.ts';

const COUNTER_VIEWS_COLLECTION = 'counter_views';
const COUNTER_VIEW_DOCUMENT_ID = 'global';
/** The document's stored shape: its version and the steps from older ones (src/platform/schema-version.ts). */
const DOCUMENT_SHAPE = firstShape('counter_views document');

export interface CounterReadModel {
  count: number;
  /** stream revision the count includes (0 = nothing) */
  revision: number;
  /** global sequence of that event (0 = nothing) */
  last_sequence: number;
}

export const EMPTY_READ_MODEL: CounterReadModel = { count: 0, revision: 0, last_sequence: 0 };

/** The model right after a stored counter event. Throws AppError('internal') if it does not decode. */
export function modelAfter(event: RecordedEvent): CounterReadModel {
  const { value } = evolve(initialState, decodeEvent(event));
  return { count: value, revision: Number(event.revision), last_sequence: Number(event.sequence) };
}

/**
 * Folds one counter event into the model. Events the model already includes are skipped (a
 * concurrent projection run may have moved it ahead); a gap means the model is corrupt.
 */
export function project(model: CounterReadModel, event: RecordedEvent): CounterReadModel {
  const revision = Number(event.revision);
  if (revision <= model.revision) return model;
  if (revision !== model.revision + 1) {
    throw new AppError('internal', undefined, { cause: new Error(`counter read model at ${model.revision} cannot apply revision ${revision}`) });
  }
  return modelAfter(event);
}

/** The model the projection stored, or undefined before its first commit. Throws AppError('internal') if malformed. */
export function storedReadModel(platform: Platform): CounterReadModel | undefined {
  const document = platform.projections.getDocument({ collection: COUNTER_VIEWS_COLLECTION, id: COUNTER_VIEW_DOCUMENT_ID });
  return document === undefined ? undefined : parseReadModel(document.body);
}

export function readModelChange(model: CounterReadModel): DocumentChange {
  return { tag: 'put', val: { collection: COUNTER_VIEWS_COLLECTION, id: COUNTER_VIEW_DOCUMENT_ID, body: writeDocumentBody(DOCUMENT_SHAPE, model) } };
}

function parseReadModel(body: string): CounterReadModel {
  const { count, revision, last_sequence } = readDocumentBody(DOCUMENT_SHAPE, body);
  if (!isInt32(count as number) || !isPosition(revision) || !isPosition(last_sequence)) {
    throw new AppError('internal', undefined, { cause: new Error('counter read model is malformed') });
  }
  return { count: count as number, revision, last_sequence };
}

function isPosition(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}
