/**
 * The process-wide metrics, collected in the main thread only: prom-client's default metrics
 * (CPU, resident memory, file descriptors, heap, GC, the main thread's event-loop lag) and the
 * worker threads alive. Worker threads never collect these: they are the same process, and
 * summing them across threads would count the process once per thread.
 */
import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';

export function processRegistry(workerThreads: () => number): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  new Gauge({
    name: 'host_worker_threads',
    help: 'Worker threads serving the port (--workers N); 0 when the main thread serves it itself',
    registers: [registry],
    collect() {
      this.set(workerThreads());
    },
  });
  return registry;
}
