/** The counter query: current count with the newest events. */
import { storeFailure } from '../../errors.ts';
import { currentCounter } from './current-counter.ts';
import type { CounterDeps } from './deps.ts';
import { toEventLog, type CounterView } from './view.ts';

/** Throws AppError ('store' when storage fails). */
export function getCounterView(deps: CounterDeps): CounterView {
  try {
    const { state, latest } = currentCounter(deps.platform, deps.memory);
    return {
      count: state.value,
      latest_events: latest.map(toEventLog),
      last_sequence: Number(latest[0]?.sequence ?? 0n),
      realtime_enabled: deps.realtime.enabled,
    };
  } catch (error) {
    throw storeFailure(error);
  }
}
