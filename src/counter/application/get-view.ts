/** The counter query: current count with the newest events, and the stream event it was read at. */
import { AppError } from '../../errors.ts';
import { COUNTER_CHANGED } from './counter-changed.ts';
import type { StreamSource } from '../../http/surrogate.ts';
import { COUNTER_STREAM_ID } from '../domain/counter.ts';
import { currentCounter } from './current-counter.ts';
import type { CounterDeps } from './deps.ts';
import { toEventLog, type CounterView } from './view.ts';

/** The view and the newest stream event it includes (what a cache validates it against). */
export interface SourcedCounterView {
  view: CounterView;
  source: StreamSource;
}

/** Throws AppError ('store' when storage fails). */
export function readCounterView(deps: CounterDeps): SourcedCounterView {
  try {
    const { state, revision, latest } = currentCounter(deps.platform);
    const head = latest[0];
    return {
      view: {
        count: state.value,
        latest_events: latest.map(toEventLog),
        last_sequence: Number(head?.sequence ?? 0n),
        realtime_enabled: deps.realtime.enabled,
      },
      source: { streamId: COUNTER_STREAM_ID, revision, sequence: head?.sequence ?? 0n, recordedAt: head?.recordedAt ?? 0n },
    };
  } catch (error) {
    throw AppError.fromStore(error, COUNTER_CHANGED);
  }
}

/** Throws AppError ('store' when storage fails). */
export function getCounterView(deps: CounterDeps): CounterView {
  return readCounterView(deps).view;
}
