/**
 * --workers 2 --metrics-port: one listener reports the whole process. Each worker thread keeps
 * its own registry; the main thread asks both for it and sums them (AggregatorRegistry.aggregate),
 * so the exchange counter equals everything sent whichever thread served it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, startHost, type HostProcess } from '../../harness/host-process.ts';
import { scrape } from '../support/prometheus.ts';

let host: HostProcess | undefined;
afterEach(async () => {
  await host?.kill();
  host = undefined;
});

const CLIENTS = 16;
const EACH = 10;

describe('--workers 2 with --metrics-port', () => {
  it('sums both workers: every increment counted once, instances of both threads, one event-loop series per thread', async () => {
    const metricsPort = await freePort();
    host = await startHost({ args: ['--workers', '2', '--instances-min', '2', '--metrics-port', String(metricsPort)] });
    const metricsUrl = `http://127.0.0.1:${metricsPort}`;
    const before = await scrape(metricsUrl);
    // 16 connections: the kernel spreads them over both threads (odds of one idle thread: 2^-15).
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        for (let i = 0; i < EACH; i++) {
          const response = await fetch(`${host!.url}/api/counter/increment`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"amount":1}' });
          expect(response.status).toBe(200);
        }
      }),
    );
    const after = await scrape(metricsUrl);
    const posts = (s: typeof after) => s.value('host_http_exchanges_total', { method: 'POST', status: '200' }) ?? 0;
    expect(posts(after) - posts(before)).toBe(CLIENTS * EACH);
    expect(after.value('host_worker_threads')).toBe(2);
    // Each worker warmed --instances-min instances: the sum holds both threads' pools.
    expect(after.value('host_guest_instances_created_total')).toBeGreaterThanOrEqual(4);
    expect(after.total('host_guest_instances')).toBeGreaterThanOrEqual(4);
    for (const thread of ['1', '2']) expect(after.value('host_event_loop_delay_seconds', { thread, quantile: '0.99' })).toBeGreaterThanOrEqual(0);
    expect(after.value('host_dependency_up', { dependency: 'store' })).toBe(1);

    const ready = await fetch(`${metricsUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', dependencies: { store: true } });

    expect(await host.stop()).toBe(0);
    // Both threads served part of the load the aggregate counted.
    const runs = host.logs().find((l) => l['code'] === 'workers_stopped')?.['runs_per_worker'] as number[];
    expect(runs).toHaveLength(2);
    for (const n of runs) expect(n).toBeGreaterThan(0);
  });
});
