/**
 * Phase marks of one exchange, for the profiling build only (`node scripts/build.ts --variant
 * profile`, `npm run bench -- profile`). Every call site is a statement labelled `GUEST_PROFILE:`,
 * which the production bundle drops (esbuild's `dropLabels`, scripts/guest-bundle.ts): production
 * code pays nothing, not even a branch. Under unit tests no clock is installed and marks do nothing.
 *
 * A mark closes the phase that ran since the previous mark, so the phases of an exchange add up to
 * its time in the guest. Each instance keeps the phases of its exchanges and writes them as one
 * `guest_profile` log line every PROFILE_BATCH exchanges, in microseconds per exchange.
 */

/** Exchanges per `guest_profile` line: few enough lines that writing them is not what is measured. */
export const PROFILE_BATCH = 50;

let clock: (() => bigint) | undefined;
let write: ((line: string) => void) | undefined;
let started = 0n;
let last = 0n;
let current = new Map<string, number>();
/** Per phase, its microseconds in each exchange of the batch (0 where the exchange had no such phase). */
let batch = new Map<string, number[]>();
let exchanges = 0;

/** Turns profiling on in this instance: `now` is wasi:clocks/monotonic-clock's (nanoseconds). */
export function installProfileClock(now: () => bigint, writeLine: (line: string) => void): void {
  clock = now;
  write = writeLine;
}

/** Starts an exchange: its phases start from here. */
export function profileStart(): void {
  if (clock === undefined) return;
  started = last = clock();
  current = new Map();
}

/** Closes the phase `phase` (the time since the previous mark); repeated phases add up. */
export function profileMark(phase: string): void {
  if (clock === undefined) return;
  const now = clock();
  current.set(phase, (current.get(phase) ?? 0) + Number(now - last) / 1000);
  last = now;
}

/** Ends the exchange (after its response is written) and writes the batch when it is full. */
export function profileEnd(route: string): void {
  if (clock === undefined) return;
  current.set('total', Number(clock() - started) / 1000);
  const key = (name: string) => `${route} ${name}`;
  for (const [name, us] of current) {
    let samples = batch.get(key(name));
    if (samples === undefined) {
      samples = new Array<number>(exchanges).fill(0);
      batch.set(key(name), samples);
    }
    samples.push(Math.round(us * 10) / 10);
  }
  exchanges++;
  for (const samples of batch.values()) if (samples.length < exchanges) samples.push(0);
  if (exchanges < PROFILE_BATCH) return;
  write?.(JSON.stringify({ source: 'component', level: 'info', msg: 'guest phases', code: 'guest_profile', exchanges, phases: Object.fromEntries(batch) }));
  batch = new Map();
  exchanges = 0;
}
