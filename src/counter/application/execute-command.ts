/**
 * The one command routine every surface (REST, gRPC, server functions) calls:
 * load + decide + append (retrying conflicts), build the view, publish it, advance the projection.
 */
import { AppError, storeFailure } from '../../errors.ts';
import type { Platform, RecordedEvent } from '../../platform/ports.ts';
import { COUNTER_STREAM_ID, decide, fold, type CounterCommand, type CounterState } from '../domain/counter.ts';
import type { CounterDeps } from './deps.ts';
import { encodeEvent } from './event-codec.ts';
import { failureDetail } from './failure-detail.ts';
import { loadCounter } from './load-counter.ts';
import { runCounterProjection } from './projection.ts';
import { DEFAULT_RETRY_POLICY, retryOnConflict } from './retry.ts';
import { encodeRealtimeMessage, latestEvents, type CounterView } from './view.ts';

interface Committed {
  state: CounterState;
  /** the events just appended, in order; never empty */
  recorded: RecordedEvent[];
}

/** Executes a command; throws AppError (validation, domain, concurrency, store, internal). */
export async function executeCounterCommand(deps: CounterDeps, command: CounterCommand): Promise<CounterView> {
  const { platform } = deps;
  let committed: Committed;
  try {
    const sleep = (ms: number): Promise<void> => platform.sleep(ms); // keep `this` for class-based platforms
    committed = await retryOnConflict(sleep, deps.retry ?? DEFAULT_RETRY_POLICY, () => attempt(platform, command));
  } catch (error) {
    throw storeFailure(error);
  }
  const view = buildView(deps, committed);
  publish(deps, view);
  advanceProjection(platform);
  return view;
}

/** One optimistic attempt: load, decide, append expecting the revision we loaded. */
function attempt(platform: Platform, command: CounterCommand): Committed {
  const { state, revision } = loadCounter(platform);
  const events = decide(command, state);
  const expected = revision === 0n ? { tag: 'no-stream' as const } : { tag: 'exact' as const, val: revision };
  const recorded = platform.events.append(COUNTER_STREAM_ID, expected, events.map(encodeEvent));
  return { state: fold(state, events), recorded };
}

function buildView(deps: CounterDeps, { state, recorded }: Committed): CounterView {
  const last = recorded.at(-1);
  if (last === undefined) throw new AppError('internal', undefined, { cause: new Error('append returned no events') });
  try {
    return {
      count: state.value,
      latest_events: latestEvents(deps.platform, last.revision),
      last_sequence: Number(last.sequence),
      realtime_enabled: deps.realtime.enabled,
    };
  } catch (error) {
    // The command is already committed; say so in the log, since the caller only sees an error.
    deps.platform.logger.log('error', 'counter view read failed after commit', {
      code: 'view_read_failed',
      committed_sequence: Number(last.sequence),
      detail: failureDetail(error),
    });
    throw storeFailure(error);
  }
}

/** Best effort: realtime delivery is a wake-up, never a reason to fail a committed command. */
function publish(deps: CounterDeps, view: CounterView): void {
  if (!deps.realtime.enabled || deps.realtime.delivery === 'polling') return;
  try {
    deps.platform.pubsub.publish(deps.realtime.channel, encodeRealtimeMessage(view));
  } catch (error) {
    deps.platform.logger.log('warn', 'realtime publish failed', {
      code: 'realtime_publish_failed',
      channel: deps.realtime.channel,
      detail: failureDetail(error),
    });
  }
}

/** Best effort: a lagging projection only makes the next load replay a longer tail. */
function advanceProjection(platform: Platform): void {
  try {
    runCounterProjection(platform);
  } catch (error) {
    platform.logger.log('error', 'counter projection failed', { code: 'projection_failed', detail: failureDetail(error) });
  }
}
