/**
 * A timer for delays longer than setTimeout can hold. setTimeout keeps its delay as a signed
 * 32-bit count of milliseconds: a longer one (a `grpc-timeout` of 600H is 2,160,000,000 ms) fires
 * at once. This waits in slices of at most that size until the time has really passed.
 */

/** The longest delay setTimeout honours. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Calls `fire` once `remainingMs()` is 0 or less, asking again after each slice (so the caller's
 * own clock decides); returns a function that cancels it.
 */
export function afterRemaining(remainingMs: () => number, fire: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    const left = remainingMs();
    if (left <= 0) return fire();
    timer = setTimeout(arm, Math.min(left, MAX_TIMER_MS));
  };
  arm();
  return () => clearTimeout(timer);
}
