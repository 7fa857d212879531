/**
 * The counter's read model: the count, the stream revision it includes, that event's global
 * sequence and the newest events up to it. The counter projection keeps it at its checkpoint in the
 * document `counter_views/global` (projection.ts); the view query reads that document and folds in
 * the events the projection has not reached yet (get-view.ts).
 *
 * An increment or decrement records the count it left and a reset implies 0, so the count after
 * an event is that event's own (`modelAfter`): the command routine loads the counter from its
 * newest event alone (current-counter.ts). Folding checks that each event follows on.
 */
import * as v from 'valibot';
import { AppError } from '../../errors.ts';
import type { DocumentChange, Platform, RecordedEvent } from '../../platform/ports.ts';
import { readDocumentBody, writeDocumentBody, type StoredShape } from '../../platform/schema-version.ts';
import { evolve, initialState } from '../domain/counter.ts';
import { isInt32 } from '../domain/int32.ts';
import { decodeEvent } from './event-codec.ts';
import { eventLogSchema, LATEST_EVENTS_LIMIT, toEventLog, type EventLog } from './view.ts';

const COUNTER_VIEWS_COLLECTION = 'counter_views';
const COUNTER_VIEW_DOCUMENT_ID = 'global';
/**
 * The document's stored shape (src/platform/schema-version.ts). Version 2 keeps the newest events;
 * a version-1 document (count and position only) reads with none, and the view then reads them
 * from the stream (get-view.ts) until the projection's next commit writes them.
 */
const DOCUMENT_SHAPE: StoredShape = { name: 'counter_views document', version: 2, upcasters: { 1: (body) => ({ ...body, latest_events: [] }) } };

export interface CounterReadModel {
  count: number;
  /** stream revision the count includes (0 = nothing) */
  revision: number;
  /** global sequence of that event (0 = nothing) */
  last_sequence: number;
  /** the newest events up to `revision`, newest first, at most LATEST_EVENTS_LIMIT */
  latest_events: EventLog[];
}

export const EMPTY_READ_MODEL: CounterReadModel = { count: 0, revision: 0, last_sequence: 0, latest_events: [] };

/** The count and position right after a stored counter event. Throws AppError('internal') if it does not decode. */
export function modelAfter(event: RecordedEvent): Omit<CounterReadModel, 'latest_events'> {
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
  return { ...modelAfter(event), latest_events: [toEventLog(event), ...model.latest_events].slice(0, LATEST_EVENTS_LIMIT) };
}

/**
 * The model caught up with `events`, the stream's events right after it (oldest first): what
 * folding them one by one gives, decoding only the newest (which carries the count) and keeping
 * only the newest few. A gap, or an event before the model, means the store is corrupt.
 */
export function caughtUp(model: CounterReadModel, events: readonly RecordedEvent[]): CounterReadModel {
  const newest = events.at(-1);
  if (newest === undefined) return model;
  events.forEach((event, i) => {
    if (Number(event.revision) !== model.revision + 1 + i) {
      throw new AppError('internal', undefined, { cause: new Error(`counter read model at ${model.revision} cannot apply revision ${event.revision}`) });
    }
  });
  const latest = events.slice(-LATEST_EVENTS_LIMIT).reverse().map(toEventLog);
  return { ...modelAfter(newest), latest_events: [...latest, ...model.latest_events].slice(0, LATEST_EVENTS_LIMIT) };
}

/** The model of the stream's newest events (newest first): what the view is when the document is too far behind. */
export function modelOfNewest(newest: readonly RecordedEvent[]): CounterReadModel {
  const head = newest[0];
  return head === undefined ? EMPTY_READ_MODEL : { ...modelAfter(head), latest_events: newest.slice(0, LATEST_EVENTS_LIMIT).map(toEventLog) };
}

/** The model the projection stored, or undefined before its first commit. Throws AppError('internal') if malformed. */
export function storedReadModel(platform: Platform): CounterReadModel | undefined {
  const document = platform.projections.getDocument({ collection: COUNTER_VIEWS_COLLECTION, id: COUNTER_VIEW_DOCUMENT_ID });
  return document === undefined ? undefined : parseReadModel(document.body);
}

export function readModelChange(model: CounterReadModel): DocumentChange {
  return { tag: 'put', val: { collection: COUNTER_VIEWS_COLLECTION, id: COUNTER_VIEW_DOCUMENT_ID, body: writeDocumentBody(DOCUMENT_SHAPE, model) } };
}

/** What the projection wrote, checked against the wire schema of the events it kept (it wrote what toEventLog made). */
const LatestEventsSchema = v.array(eventLogSchema);

function parseReadModel(body: string): CounterReadModel {
  const { count, revision, last_sequence, latest_events } = readDocumentBody(DOCUMENT_SHAPE, body);
  const latest = v.safeParse(LatestEventsSchema, latest_events);
  if (!isInt32(count as number) || !isPosition(revision) || !isPosition(last_sequence) || !latest.success) {
    throw new AppError('internal', undefined, { cause: new Error('counter read model is malformed') });
  }
  return { count: count as number, revision, last_sequence, latest_events: latest.output };
}

function isPosition(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}
