/**
 * The statistics the benchmarks report: percentiles of latencies, medians and means of rounds, and
 * the trend of a memory series. One definition each, so two tables never disagree on what p99 means.
 */

/** The `p`th percentile of ascending `sorted` (nearest rank, no interpolation); NaN when empty. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Ascending copy of `values`. */
export const ascending = (values: readonly number[]): number[] => [...values].sort((a, b) => a - b);

/** The median of `values` in any order (the upper one of an even count); NaN when empty. */
export const median = (values: readonly number[]): number => percentile(ascending(values), 50);

/** The arithmetic mean; NaN when empty. */
export const mean = (values: readonly number[]): number => values.reduce((sum, v) => sum + v, 0) / values.length;

/**
 * The mean of the last third of `series` against the mean of its first third, in percent. One
 * sample swings with the sawtooth of instances growing to the retirement limit and being replaced;
 * the means of the thirds do not.
 */
export function thirdsTrendPercent(series: readonly number[]): number {
  const third = Math.max(1, Math.floor(series.length / 3));
  const first = mean(series.slice(0, third));
  return ((mean(series.slice(-third)) - first) / first) * 100;
}
