/** wasi:clocks sleeps: a duration beyond setTimeout's 2^31-1 ms must not wake the guest at once. */
import { describe, expect, it } from 'vitest';
import { clocksImports } from './clocks.ts';

const clock = clocksImports['wasi:clocks/monotonic-clock'];
const NS_PER_MS = 1_000_000n;

/** Resolves 'woke' if the pollable's wait settles within `ms`, else 'asleep'. */
function wokeWithin(pollable: ReturnType<typeof clock.subscribeDuration>, ms: number): Promise<'woke' | 'asleep'> {
  const wait = pollable.block();
  if (wait === undefined) return Promise.resolve('woke');
  return Promise.race([wait.then(() => 'woke' as const), new Promise<'asleep'>((r) => setTimeout(() => r('asleep'), ms))]);
}

describe('wasi:clocks subscribe-duration', () => {
  it('a sleep of 600 hours (more than 2^31-1 ms) does not wake within 200 ms, nor on a second wait', async () => {
    const pollable = clock.subscribeDuration(600n * 3_600_000n * NS_PER_MS);
    expect(await wokeWithin(pollable, 200)).toBe('asleep');
    expect(pollable.ready()).toBe(false);
    expect(await wokeWithin(pollable, 50)).toBe('asleep');
  });

  it('a short sleep wakes once its time has passed', async () => {
    const pollable = clock.subscribeDuration(20n * NS_PER_MS);
    expect(await wokeWithin(pollable, 2_000)).toBe('woke');
    expect(pollable.ready()).toBe(true);
  });
});
