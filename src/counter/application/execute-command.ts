/**
 * The one command routine every surface (REST, gRPC, server functions) calls:
 * load + decide + append (retrying conflicts), build the view, publish it, advance the projection.
 */
import { AppError, storeFailure } from '../../errors.ts';
import type { Platform } from '../../platform/ports.ts';
import { COUNTER_STREAM_ID, decide, fold, type CounterCommand } from '../domain/counter.ts';
import { afterCommit, currentCounter, type CounterMemory, type KnownCounter } from './current-counter.ts';
import type { CounterDeps } from './deps.ts';
import { encodeEvent } from './event-codec.ts';
import { failureDetail } from './failure-detail.ts';
import { runCounterProjection } from './projection.ts';
import { DEFAULT_RETRY_POLICY, retryOnConflict } from './retry.ts';
import { encodeRealtimeMessage, toEventLog, type CounterView } from './view.ts';

/** Executes a command; throws AppError (validation, domain, concurrency, store, internal). */
export async function executeCounterCommand(deps: CounterDeps, command: CounterCommand): Promise<CounterView> {
  const { platform } = deps;
  let committed: KnownCounter;
  try {
    const sleep = (ms: number): Promise<void> => platform.sleep(ms); // keep `this` for class-based platforms
    committed = await retryOnConflict(sleep, deps.retry ?? DEFAULT_RETRY_POLICY, () => attempt(platform, command, deps.memory));
  } catch (error) {
    throw storeFailure(error);
  }
  const view = buildView(deps, committed);
  publish(deps, view);
  advanceProjection(platform);
  return view;
}

/** One optimistic attempt: read the current state, decide, append expecting the revision read. */
function attempt(platform: Platform, command: CounterCommand, memory: CounterMemory | undefined): KnownCounter {
  const base = currentCounter(platform, memory);
  const events = decide(command, base.state);
  const expected = base.revision === 0n ? { tag: 'no-stream' as const } : { tag: 'exact' as const, val: base.revision };
  const recorded = platform.events.append(COUNTER_STREAM_ID, expected, events.map(encodeEvent));
  if (recorded.length === 0) throw new AppError('internal', undefined, { cause: new Error('append returned no events') });
  const committed = afterCommit(base, fold(base.state, events), recorded);
  if (memory) memory.known = committed;
  return committed;
}

/** The view right after the commit: the count it produced and the events up to it, no read needed. */
function buildView(deps: CounterDeps, committed: KnownCounter): CounterView {
  return {
    count: committed.state.value,
    latest_events: committed.latest.map(toEventLog),
    last_sequence: Number(committed.latest[0]?.sequence ?? 0n),
    realtime_enabled: deps.realtime.enabled,
  };
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
