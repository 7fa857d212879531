/**
 * The one command routine every surface (REST, gRPC, server functions) calls: take the turn on
 * the counter stream (a stream lease: writers queue instead of racing; it comes with the stream's
 * newest events), decide on them, end the turn with the append (which also announces the commit
 * on the realtime channel), build the view, and every PROJECTION_BATCH events advance the
 * projection once the response is sent (platform.afterResponse). Two calls across the platform
 * boundary per command: `acquire` and `appendAndEnd`.
 * The append's revision check stays the safety net: a conflict (a writer without a lease, or a
 * platform whose leases do not exclude) is retried with a fresh turn (docs/scaling.md).
 */
import { AppError } from '../../errors.ts';
import { COUNTER_CHANGED } from './counter-changed.ts';
import type { Platform, StreamLease } from '../../platform/ports.ts';
import { COUNTER_STREAM_ID, decide, fold, type CounterCommand } from '../domain/counter.ts';
import { afterCommit, counterOf, type KnownCounter } from './current-counter.ts';
import type { Actor, CounterDeps, RealtimeConfig } from './deps.ts';
import { encodeEvent } from './event-codec.ts';
import { advanceProjection, COUNTER_PROJECTION } from './projection.ts';
import { DEFAULT_RETRY_POLICY, retryOnConflict } from './retry.ts';
import { LATEST_EVENTS_LIMIT, toEventLog, type CounterView } from './view.ts';

/**
 * How long a command waits for its turn on the counter stream before answering 409
 * `concurrency`. Above the host's lease time (5 s), so a dead holder's turn always expires
 * within one writer's wait (docs/scaling.md).
 */
export const TURN_WAIT_MS = 10_000;
export const NO_TURN_MESSAGE = 'the counter is busy, try again';

/**
 * The projection (the read model at its checkpoint, read-model.ts) advances every this many
 * counter events, not per command: its commit is a write every writer would contend on.
 */
export const PROJECTION_BATCH = 32n;

/**
 * Executes a command sent by `actor` (recorded in its events; undefined: sent without a session);
 * throws AppError (validation, domain, concurrency, store, internal).
 */
export async function executeCounterCommand(deps: CounterDeps, command: CounterCommand, actor?: Actor): Promise<CounterView> {
  const { platform } = deps;
  let committed: KnownCounter;
  try {
    const sleep = (ms: number): Promise<void> => platform.sleep(ms); // keep `this` for class-based platforms
    const waitMs = deps.turnWaitMs ?? TURN_WAIT_MS;
    const announce = announcedOn(deps.realtime);
    committed = await retryOnConflict(sleep, deps.retry ?? DEFAULT_RETRY_POLICY, () => inTurn(platform, waitMs, command, actor, announce));
  } catch (error) {
    throw AppError.fromStore(error, COUNTER_CHANGED);
  }
  const view = buildView(deps, committed);
  // After the response: the client does not wait for the projection's round trips.
  if (committed.revision % (deps.projectionBatch ?? PROJECTION_BATCH) === 0n) platform.afterResponse(COUNTER_PROJECTION, () => advanceProjection(platform));
  return view;
}

/** One attempt inside the stream's turn; no turn within `waitMs` is the one 409 of a well-behaved writer. */
function inTurn(platform: Platform, waitMs: number, command: CounterCommand, actor: Actor | undefined, announce: string | undefined): KnownCounter {
  const lease = platform.leases.acquire(COUNTER_STREAM_ID, waitMs, LATEST_EVENTS_LIMIT);
  if (lease === undefined) throw new AppError('concurrency', NO_TURN_MESSAGE);
  try {
    return attempt(platform, lease, command, actor, announce);
  } finally {
    lease.release();
  }
}

/**
 * Decide on the newest events the turn came with, and end the turn with the append expecting
 * their revision: the next writer may start before it is confirmed (`appendAndEnd`), and the
 * committed events are announced on `announce` (a realtime wake-up) by the platform.
 */
function attempt(platform: Platform, lease: StreamLease, command: CounterCommand, actor: Actor | undefined, announce: string | undefined): KnownCounter {
  const base = counterOf(lease.newest);
  const events = decide(command, base.state);
  const expected = base.revision === 0n ? { tag: 'no-stream' as const } : { tag: 'exact' as const, val: base.revision };
  const encoded = events.map((event) => encodeEvent(event, actor));
  const committed = lease.appendAndEnd(expected, encoded, LATEST_EVENTS_LIMIT, announce);
  if (committed.length < events.length) throw new AppError('internal', undefined, { cause: new Error('append returned no events') });
  return afterCommit(platform, base, fold(base.state, events), committed);
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

/** The channel commits are announced on: none when realtime is off or delivered by polling (nothing is published). */
function announcedOn(realtime: RealtimeConfig): string | undefined {
  return realtime.enabled && realtime.delivery !== 'polling' ? realtime.channel : undefined;
}
