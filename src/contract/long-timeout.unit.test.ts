/** afterRemaining: delays beyond setTimeout's 2^31-1 ms wait in slices instead of firing at once. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { afterRemaining, MAX_TIMER_MS } from './long-timeout.ts';

describe('afterRemaining', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const deadlineIn = (ms: number) => {
    const at = Date.now() + ms;
    return () => at - Date.now();
  };

  it('fires after a delay of 600H (more than 2^31-1 ms), not before', () => {
    const fire = vi.fn();
    afterRemaining(deadlineIn(600 * 3_600_000), fire);
    vi.advanceTimersByTime(1_000);
    expect(fire).not.toHaveBeenCalled();
    vi.advanceTimersByTime(MAX_TIMER_MS);
    expect(fire).not.toHaveBeenCalled();
    vi.advanceTimersByTime(600 * 3_600_000 - MAX_TIMER_MS - 1_000);
    expect(fire).toHaveBeenCalledOnce();
  });

  it('fires at once when no time is left, and never once cancelled', () => {
    const now = vi.fn();
    afterRemaining(() => 0, now);
    expect(now).toHaveBeenCalledOnce();
    const later = vi.fn();
    const cancel = afterRemaining(deadlineIn(2_000), later);
    cancel();
    vi.advanceTimersByTime(5_000);
    expect(later).not.toHaveBeenCalled();
  });
});
