/** What the counter application needs from its caller: the platform ports and realtime settings. */
import type { Platform } from '../../platform/ports.ts';
import type { RetryPolicy } from './retry.ts';

export interface RealtimeConfig {
  /** Whether views are published after each command (and reported as `realtime_enabled`). */
  enabled: boolean;
  /** PubSub channel the views are published on. */
  channel: string;
  /**
   * How streams learn of new state: `pubsub` waits for wake-ups on the channel (local or Redis);
   * `polling` re-reads the store on an interval and nothing is published. Default `pubsub`.
   */
  delivery?: 'pubsub' | 'polling';
  /** Interval of polling delivery, and of the fallback re-read while pub/sub is failing. Default 500 ms. */
  pollIntervalMs?: number;
}

/** Who sent a command: the user of the session it came with. Recorded in its events' metadata (the id, never the email). */
export interface Actor {
  userId: string;
}

export interface CounterDeps {
  platform: Platform;
  realtime: RealtimeConfig;
  /** Conflict-retry tuning; defaults to DEFAULT_RETRY_POLICY. Tests pass small values. */
  retry?: RetryPolicy;
  /** Counter events between two projection advances; defaults to PROJECTION_BATCH. */
  projectionBatch?: bigint;
  /** How long a command waits for its turn on the stream; defaults to TURN_WAIT_MS. */
  turnWaitMs?: number;
  /**
   * The configured public origin (AUTH_PUBLIC_BASE_URL), against which POSTs from browsers are
   * checked (src/http/same-site.ts); undefined: loopback origins only.
   */
  publicOrigin?: string | undefined;
}
