/** wasi:clocks for the Node host: guest timers become Promise-backed pollables. */
import { Pollable } from './io.ts';

const origin = process.hrtime.bigint();

/** Nanoseconds since the host started (monotonic). */
function monotonicNow(): bigint {
  return process.hrtime.bigint() - origin;
}

/** setTimeout's longest delay (2^31-1 ms); a longer one would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

function sleepUntil(deadline: bigint): Pollable {
  let timer: Promise<void> | undefined;
  const wait = (resolve: () => void) => {
    const delay = Math.max(0, Number((deadline - monotonicNow()) / 1_000_000n)) + 1;
    // A far deadline waits in slices: an overflowing delay would wake the guest again and again.
    setTimeout(() => (delay > MAX_TIMER_MS ? wait(resolve) : resolve()), Math.min(delay, MAX_TIMER_MS));
  };
  return new Pollable(
    () => monotonicNow() >= deadline,
    () => (timer ??= new Promise(wait)),
  );
}

export const clocksImports = {
  'wasi:clocks/monotonic-clock': {
    now: monotonicNow,
    resolution: () => 1n,
    subscribeInstant: (when: bigint) => sleepUntil(when),
    subscribeDuration: (duration: bigint) => sleepUntil(monotonicNow() + duration),
  },
  'wasi:clocks/wall-clock': {
    now: () => {
      const ms = Date.now();
      return { seconds: BigInt(Math.floor(ms / 1000)), nanoseconds: (ms % 1000) * 1_000_000 };
    },
    resolution: () => ({ seconds: 0n, nanoseconds: 1_000_000 }),
  },
};
