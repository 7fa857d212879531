/** What the counter application needs from its caller: the platform ports and realtime settings. */
import type { Platform } from '../../platform/ports.ts';
import type { RetryPolicy } from './retry.ts';

export interface RealtimeConfig {
  /** Whether views are published after each command (and reported as `realtime_enabled`). */
  enabled: boolean;
  /** PubSub channel the views are published on. */
  channel: string;
}

export interface CounterDeps {
  platform: Platform;
  realtime: RealtimeConfig;
  /** Conflict-retry tuning; defaults to DEFAULT_RETRY_POLICY. Tests pass small values. */
  retry?: RetryPolicy;
}
