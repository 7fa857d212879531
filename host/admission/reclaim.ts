/**
 * Gives the memory of retired and discarded guest instances back to the system. Nothing keeps
 * an ended instance alive (measured: a forced collection frees its linear memory at once), but a
 * WebAssembly memory is released only when V8 collects its object, and V8 collects when its own
 * heap grows: an idle host, or one whose load allocates little on the V8 heap, kept the memory of
 * 100 retired instances (1.5 GiB) indefinitely. So one full collection is asked for shortly after
 * instances end, bursts coalesced and at most one per interval (a collection of the host's
 * ~50 MiB heap takes a few tens of milliseconds).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Wait after an instance ends before collecting, so a burst of retirements costs one collection. */
export const RECLAIM_DELAY_MS = 1_000;
/** At most one collection per this interval. */
export const RECLAIM_INTERVAL_MS = 5_000;

type Collect = () => void;

/** V8's `gc()`: the global one under --expose-gc, else one exposed in a fresh context (the flag applies to contexts created after it). */
function collector(): Collect {
  const exposed = (globalThis as { gc?: Collect }).gc;
  if (typeof exposed === 'function') return exposed;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as Collect;
}

/** Returns the function to call whenever instances ended; it schedules the collection. */
export function memoryReclaimer(collect: Collect = collector(), now: () => number = () => performance.now()): () => void {
  let timer: NodeJS.Timeout | undefined;
  let last = -Infinity;
  return () => {
    if (timer !== undefined) return;
    const wait = Math.max(RECLAIM_DELAY_MS, last + RECLAIM_INTERVAL_MS - now());
    timer = setTimeout(() => {
      timer = undefined;
      last = now();
      collect();
    }, wait);
    timer.unref();
  };
}
