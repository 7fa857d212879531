/**
 * The counter query: the projection's document (read-model.ts, advanced by the command routine's
 * last step) caught up with the stream events it has not folded yet, so a read sees every command
 * answered before it (read your writes) however far the projection lags. It reports the stream
 * event it was read at, which the host's response cache validates against (docs/response-cache.md).
 *
 * The catch-up is one forward read from the document's revision. A projection further behind
 * than that read takes (its runs failing) makes the stream's newest events the view, as a stale
 * one does, and either way the view asks for a projection run after its response; so does a
 * catch-up whose oldest event waited more than STALE_TAIL_MS (the commands advance the projection
 * every PROJECTION_BATCH events, and a counter that went quiet would otherwise be read with its
 * tail for good).
 */
import { AppError } from '../../errors.ts';
import { COUNTER_CHANGED } from './counter-changed.ts';
import type { StreamSource } from '../../http/surrogate.ts';
import type { Platform } from '../../platform/ports.ts';
import { COUNTER_STREAM_ID } from '../domain/counter.ts';
import type { CounterDeps } from './deps.ts';
import { advanceProjection, COUNTER_PROJECTION } from './projection.ts';
import { caughtUp, EMPTY_READ_MODEL, modelOfNewest, storedReadModel, type CounterReadModel } from './read-model.ts';
import { LATEST_EVENTS_LIMIT, type CounterView } from './view.ts';

/** Most events a view folds onto the document: twice the commands' projection batch (32). */
export const CATCH_UP_LIMIT = 64;
/** A catch-up whose oldest event is older than this asks for a projection run. */
export const STALE_TAIL_MS = 1_000;

/** The view and the newest stream event it includes (what a cache validates it against). */
export interface SourcedCounterView {
  view: CounterView;
  source: StreamSource;
}

/** Throws AppError ('store' when storage fails). */
export function readCounterView(deps: CounterDeps): SourcedCounterView {
  let model: CounterReadModel;
  try {
    model = currentModel(deps.platform);
  } catch (error) {
    throw AppError.fromStore(error, COUNTER_CHANGED);
  }
  const head = model.latest_events[0];
  return {
    view: { count: model.count, latest_events: model.latest_events, last_sequence: model.last_sequence, realtime_enabled: deps.realtime.enabled },
    source: {
      streamId: COUNTER_STREAM_ID,
      revision: BigInt(model.revision),
      sequence: BigInt(model.last_sequence),
      recordedAt: head === undefined ? 0n : BigInt(Date.parse(head.recorded_at)),
    },
  };
}

/** Throws AppError ('store' when storage fails). */
export function getCounterView(deps: CounterDeps): CounterView {
  return readCounterView(deps).view;
}

/** The document caught up with the stream (see the header). */
function currentModel(platform: Platform): CounterReadModel {
  const stored = storedReadModel(platform) ?? EMPTY_READ_MODEL;
  const tail = platform.events.readStream(COUNTER_STREAM_ID, { direction: 'forward', fromRevision: BigInt(stored.revision + 1), limit: CATCH_UP_LIMIT });
  const oldest = tail[0];
  if (oldest !== undefined && (tail.length === CATCH_UP_LIMIT || platform.now() - Number(oldest.recordedAt) > STALE_TAIL_MS)) {
    platform.afterResponse(COUNTER_PROJECTION, () => advanceProjection(platform));
  }
  const model = tail.length === CATCH_UP_LIMIT ? undefined : caughtUp(stored, tail);
  // Too far behind for one read, or a document written before it kept its events: the stream's newest events are the view.
  if (model === undefined || model.latest_events.length < Math.min(LATEST_EVENTS_LIMIT, model.revision)) {
    return modelOfNewest(platform.events.readStream(COUNTER_STREAM_ID, { direction: 'backward', limit: LATEST_EVENTS_LIMIT }));
  }
  return model;
}
