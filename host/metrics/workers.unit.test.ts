/** The main thread's view of --workers N: registries summed across threads, readiness combined. */
import { Counter, Gauge, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { aggregateScrape, combineReadiness } from './workers.ts';

function threadRegistry(posts: number, storeUp: boolean): Registry {
  const registry = new Registry();
  new Counter({ name: 'host_http_exchanges_total', help: 'h', labelNames: ['method', 'status'], registers: [registry] }).inc({ method: 'POST', status: '200' }, posts);
  new Gauge({ name: 'host_dependency_up', help: 'h', labelNames: ['dependency'], aggregator: 'min', registers: [registry] }).set({ dependency: 'store' }, storeUp ? 1 : 0);
  return registry;
}

describe('aggregateScrape()', () => {
  it('sums counters across threads, applies a metric’s own aggregator, and keeps the main registry whole', async () => {
    const parts = await Promise.all([threadRegistry(3, true), threadRegistry(4, false)].map((r) => r.getMetricsAsJSON()));
    const main = new Registry();
    new Gauge({ name: 'process_start_time_seconds', help: 'h', aggregator: 'omit', registers: [main] }).set(42);
    const { body, contentType } = await aggregateScrape(main, parts);
    expect(contentType).toMatch(/^text\/plain; version=0.0.4/);
    expect(body).toContain('host_http_exchanges_total{method="POST",status="200"} 7');
    expect(body).toContain('host_dependency_up{dependency="store"} 0');
    // The main thread's own metrics are kept as they are, `omit` ones included.
    expect(body).toContain('process_start_time_seconds 42');
  });
});

describe('combineReadiness()', () => {
  const up = { ready: true, stopping: false, dependencies: { store: true } };
  it('is ready only when every worker is', () => {
    expect(combineReadiness(false, [up, up])).toEqual(up);
    expect(combineReadiness(false, [up, { ready: false, stopping: false, dependencies: { store: false } }])).toEqual({
      ready: false,
      stopping: false,
      dependencies: { store: false },
    });
  });
  it('counts a worker that did not answer as down, and stopping as not ready', () => {
    expect(combineReadiness(false, [up, undefined])).toEqual({ ready: false, stopping: false, dependencies: { store: true, worker: false } });
    expect(combineReadiness(true, [up])).toEqual({ ready: false, stopping: true, dependencies: {} });
  });
});
