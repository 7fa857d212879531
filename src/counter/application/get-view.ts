/** The counter query: current count (snapshot + tail) with the newest events. */
import { storeFailure } from '../../errors.ts';
import type { CounterDeps } from './deps.ts';
import { loadCounter } from './load-counter.ts';
import { latestEvents, type CounterView } from './view.ts';

/** Throws AppError ('store' when storage fails). */
export function getCounterView(deps: CounterDeps): CounterView {
  try {
    const { state, revision } = loadCounter(deps.platform);
    const latest = latestEvents(deps.platform, revision);
    return {
      count: state.value,
      latest_events: latest,
      last_sequence: latest[0]?.sequence ?? 0,
      realtime_enabled: deps.realtime.enabled,
    };
  } catch (error) {
    throw storeFailure(error);
  }
}
