/**
 * One listener for the whole process with --workers N: each worker thread keeps its own
 * registry and readiness, and answers the main thread's requests over its message port with
 * `registry.getMetricsAsJSON()` or its readiness report. The main thread sums the registries
 * with prom-client's `AggregatorRegistry.aggregate` (counters and histograms add up; a metric
 * may name another aggregator, e.g. `min` for host_dependency_up) and is ready only when every
 * worker is.
 */
import { AggregatorRegistry, Registry } from 'prom-client';
import type { ReadinessReport } from './readiness.ts';

/** What `getMetricsAsJSON()` gives: plain data, structured-cloneable across threads. */
export type MetricsJson = Awaited<ReturnType<Registry['getMetricsAsJSON']>>;

/**
 * The Prometheus text of the main thread's process registry and the serving threads' registries
 * (as JSON), these summed metric by metric. The process registry is merged, not aggregated: its
 * metrics exist once, and aggregating would drop those marked `omit` (process_start_time_seconds).
 */
export async function aggregateScrape(process: Registry, threads: readonly MetricsJson[]): Promise<{ contentType: string; body: string }> {
  const registry = Registry.merge([process, AggregatorRegistry.aggregate(threads as MetricsJson[])]);
  return { contentType: registry.contentType, body: await registry.metrics() };
}

/** Ready when every thread answered ready; a thread that did not answer is a `worker` dependency down. */
export function combineReadiness(stopping: boolean, reports: ReadonlyArray<ReadinessReport | undefined>): ReadinessReport {
  if (stopping) return { ready: false, stopping: true, dependencies: {} };
  const dependencies: Record<string, boolean> = {};
  let ready = true;
  for (const report of reports) {
    if (report === undefined) {
      dependencies['worker'] = false;
      ready = false;
      continue;
    }
    if (report.stopping || !report.ready) ready = false;
    for (const [name, up] of Object.entries(report.dependencies)) dependencies[name] = (dependencies[name] ?? true) && up;
  }
  return { ready, stopping: false, dependencies };
}
