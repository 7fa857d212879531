/**
 * What the operations listener serves, for a single host and for a worker group: the
 * process-wide registry of the main thread plus every serving thread's registry, summed into
 * one exposition (workers.ts), and the readiness of the serving threads.
 */
import type { OperationsSource } from './listener.ts';
import { processRegistry } from './process.ts';
import type { Readiness, ReadinessReport } from './readiness.ts';
import type { HostMetrics } from './registry.ts';
import { aggregateScrape, type MetricsJson } from './workers.ts';

/** What a single host (host/app.ts, RunningHost) offers the listener: its thread's metrics and readiness. */
export interface ServingHost {
  readonly metrics: HostMetrics | undefined;
  readonly readiness: Readiness;
}

/** What a worker group (host/workers/group.ts, RunningGroup) offers the listener: its threads' metrics and readiness. */
export interface ServingGroup {
  readonly alive: number;
  threadMetrics(): Promise<MetricsJson[]>;
  readiness(): Promise<ReadinessReport>;
}

export function hostSource(host: ServingHost): OperationsSource {
  const process = processRegistry(() => 0);
  return {
    async scrape() {
      return aggregateScrape(process, host.metrics ? [await host.metrics.registry.getMetricsAsJSON()] : []);
    },
    readiness: () => host.readiness.report(),
  };
}

export function groupSource(group: ServingGroup): OperationsSource {
  const process = processRegistry(() => group.alive);
  return {
    async scrape() {
      return aggregateScrape(process, await group.threadMetrics());
    },
    readiness: () => group.readiness(),
  };
}
