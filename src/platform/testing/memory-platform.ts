/**
 * A complete in-memory Platform for unit tests: faithful stores, a manual clock, recorded sleeps
 * and logs, and failure injection (`platform.failNext('publish')`).
 */
import { AfterResponse, logAfterResponseFailure } from '../after-response.ts';
import type { Platform } from '../ports.ts';
import { Faults, type FaultOp } from './faults.ts';
import { MemoryEventStore } from './memory-event-store.ts';
import { unfencedLeases } from '../leases/unfenced-leases.ts';
import { MemoryKeyValue } from './memory-key-value.ts';
import { MemoryProjectionStore } from './memory-projection-store.ts';
import { MemoryPubSub } from './memory-pubsub.ts';
import { MemoryPasswordHasher } from './memory-password-hasher.ts';
import { RecordingLogger } from './recording-logger.ts';
import { MemoryMailer } from './memory-mailer.ts';

export { Faults, type FaultOp } from './faults.ts';
export { RecordingLogger, type LogEntry } from './recording-logger.ts';

export interface ManualClock {
  /** Current fake time, epoch ms. */
  now: number;
  advance(ms: number): void;
}

export interface MemoryPlatform extends Platform {
  readonly events: MemoryEventStore;
  readonly projections: MemoryProjectionStore;
  readonly keyValue: MemoryKeyValue;
  readonly pubsub: MemoryPubSub;
  readonly passwords: MemoryPasswordHasher;
  readonly logger: RecordingLogger;
  readonly mail: MemoryMailer;
  readonly faults: Faults;
  readonly clock: ManualClock;
  /** Every `sleep` duration requested, in order. Sleeping advances the clock and returns at once. */
  readonly sleeps: number[];
  /** The clock's time at each `scrubRemoved` call, in order. */
  readonly scrubs: number[];
  /** Work deferred with `afterResponse`, waiting for `respond()`. */
  readonly deferred: AfterResponse;
  /** What the HTTP handler does once a response is sent: runs the deferred work (failures logged as `after_response_failed`). */
  respond(): void;
  /** Shorthand for `faults.failNext`. */
  failNext(op: FaultOp, error?: Error, times?: number): void;
}

/** 2025-01-01T00:00:00.000Z: a fixed start keeps timestamps in assertions deterministic. */
const DEFAULT_START_MS = Date.UTC(2025, 0, 1);

export function createMemoryPlatform(options: { startMs?: number } = {}): MemoryPlatform {
  const faults = new Faults();
  const clock: ManualClock = {
    now: options.startMs ?? DEFAULT_START_MS,
    advance(ms) {
      clock.now += ms;
    },
  };
  const now = (): number => clock.now;
  const sleeps: number[] = [];
  const scrubs: number[] = [];
  const events = new MemoryEventStore(faults, now);
  const deferred = new AfterResponse();
  const logger = new RecordingLogger();
  const keyValue = new MemoryKeyValue(faults, now);
  const pubsub = new MemoryPubSub(faults);
  // As the Node host does: a failed announcement is logged, never the command's failure.
  const announce = (channel: string, message: string): void => {
    try {
      pubsub.publish(channel, message);
    } catch (error) {
      logger.log('warn', 'publish failed', { code: 'realtime_publish_failed', channel, error: String(error) });
    }
  };
  return {
    events,
    // One synchronous caller at a time: every turn is granted; tests replace it to refuse turns.
    leases: unfencedLeases(events, announce),
    projections: new MemoryProjectionStore(faults),
    keyValue,
    pubsub,
    passwords: new MemoryPasswordHasher(),
    mail: new MemoryMailer(keyValue),
    logger,
    faults,
    clock,
    sleeps,
    now,
    async sleep(ms) {
      sleeps.push(ms);
      clock.advance(ms);
    },
    deferred,
    afterResponse: (key, task) => deferred.defer(key, task),
    // Expired entries are absent already; nothing piles up in memory that a test would see.
    storeUpkeep: () => 0,
    scrubRemoved: () => void scrubs.push(clock.now),
    scrubs,
    respond() {
      deferred.drain(logAfterResponseFailure(logger));
    },
    failNext(op, error, times) {
      faults.failNext(op, error, times);
    },
  };
}
