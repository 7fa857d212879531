/** Test support: CounterDeps over the in-memory platform, with deterministic retry jitter. */
import { createMemoryPlatform, type MemoryPlatform } from '../platform/testing/memory-platform.ts';
import type { CounterDeps, RealtimeConfig } from './application/deps.ts';
import type { RetryPolicy } from './application/retry.ts';

export interface TestCounterDeps extends CounterDeps {
  platform: MemoryPlatform;
}

export const TEST_CHANNEL = 'counter-test';

export function testCounterDeps(options: { realtime?: Partial<RealtimeConfig>; retry?: Partial<RetryPolicy>; projectionBatch?: bigint } = {}): TestCounterDeps {
  return {
    platform: createMemoryPlatform(),
    realtime: { enabled: true, channel: TEST_CHANNEL, ...options.realtime },
    retry: { maxAttempts: 25, baseDelayMs: 2, maxDelayMs: 100, random: () => 0.5, ...options.retry },
    // Projection after every command unless a test looks at batching: assertions stay exact.
    projectionBatch: options.projectionBatch ?? 1n,
  };
}
