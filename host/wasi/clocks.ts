/** wasi:clocks for the Node host: guest timers become Promise-backed pollables. */
import { afterRemaining } from '../../src/contract/long-timeout.ts';
import { Pollable } from './io.ts';

const origin = process.hrtime.bigint();

/** Nanoseconds since the host started (monotonic). */
function monotonicNow(): bigint {
  return process.hrtime.bigint() - origin;
}

function sleepUntil(deadline: bigint): Pollable {
  let timer: Promise<void> | undefined;
  // afterRemaining: a far deadline would otherwise overflow setTimeout and wake the guest again and again.
  const remainingMs = () => Number((deadline - monotonicNow()) / 1_000_000n) + 1;
  return new Pollable(
    () => monotonicNow() >= deadline,
    () => (timer ??= new Promise((resolve) => afterRemaining(remainingMs, resolve))),
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
