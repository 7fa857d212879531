/**
 * Bounded retry of an optimistic-concurrency attempt. Only revision conflicts are retried: they
 * mean another writer got in first, so reloading and deciding again is safe and usually succeeds.
 */
import { AppError, StoreError } from '../../errors.ts';

export interface RetryPolicy {
  maxAttempts: number;
  /** Upper bound of the first back-off; doubles per attempt up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Source of jitter in [0, 1); defaults to Math.random. */
  random?: () => number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 25, baseDelayMs: 2, maxDelayMs: 100 };

const CONCURRENCY_MESSAGE = 'the counter was changed concurrently, try again';

/** "Full jitter" back-off: spreads competing writers apart instead of retrying in lock-step. */
function backoffDelay(policy: RetryPolicy, attempt: number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  const random = policy.random ?? Math.random;
  return Math.max(1, Math.ceil(random() * ceiling));
}

/** Runs `attempt` until it succeeds, throws a non-conflict error, or attempts run out. */
export async function retryOnConflict<T>(sleep: (ms: number) => Promise<void>, policy: RetryPolicy, attempt: () => T): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return attempt();
    } catch (error) {
      if (!(error instanceof StoreError && error.kind === 'conflict')) throw error;
      if (n >= policy.maxAttempts) throw new AppError('concurrency', CONCURRENCY_MESSAGE, { cause: error });
      await sleep(backoffDelay(policy, n));
    }
  }
}
