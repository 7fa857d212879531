/**
 * Memory of other processes for the benchmarks that watch it (bench:soak, bench:scale-soak,
 * bench:realtime): the resident set read from Linux's /proc, and the trend the soaks report.
 */
import { readFileSync } from 'node:fs';

/** Resident set of process `pid` in bytes, every thread included (NaN once it is gone). */
export function residentBytes(pid: number): number {
  try {
    const line = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return line ? Number(line[1]) * 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/**
 * The mean of the last third of `series` against the mean of its first third, in percent. One
 * sample swings with the sawtooth of instances growing to the retirement limit and being replaced;
 * the means of the thirds do not.
 */
export function thirdsTrendPercent(series: readonly number[]): number {
  const third = Math.max(1, Math.floor(series.length / 3));
  const mean = (list: readonly number[]) => list.reduce((n, v) => n + v, 0) / list.length;
  const first = mean(series.slice(0, third));
  return ((mean(series.slice(-third)) - first) / first) * 100;
}
