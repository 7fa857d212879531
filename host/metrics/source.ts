/**
 * What the operations listener serves, for a single host and for a worker group: the
 * process-wide registry of the main thread plus every serving thread's registry, summed into
 * one exposition (workers.ts), and the readiness of the serving threads.
 */
import type { RunningHost } from '../app.ts';
import type { RunningGroup } from '../workers/group.ts';
import type { OperationsSource } from './listener.ts';
import { processRegistry } from './process.ts';
import { aggregateScrape } from './workers.ts';

export function hostSource(host: RunningHost): OperationsSource {
  const process = processRegistry(() => 0);
  return {
    async scrape() {
      return aggregateScrape(process, host.metrics ? [await host.metrics.registry.getMetricsAsJSON()] : []);
    },
    readiness: () => host.readiness.report(),
  };
}

export function groupSource(group: RunningGroup): OperationsSource {
  const process = processRegistry(() => group.alive);
  return {
    async scrape() {
      return aggregateScrape(process, await group.threadMetrics());
    },
    readiness: () => group.readiness(),
  };
}
