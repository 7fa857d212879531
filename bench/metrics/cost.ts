/**
 * The per-operation cost of host metrics, measured in-process (no network, little affected by
 * other load on the machine): a timed WIT import call against a plain one, one exchange's
 * counter increment and histogram observation, and one scrape of a populated registry summed
 * with the process registry. bench/metrics.ts prints these beside its throughput table.
 */
import { instrumentImports } from '../../host/metrics/imports.ts';
import { processRegistry } from '../../host/metrics/process.ts';
import { HostMetrics } from '../../host/metrics/registry.ts';
import { aggregateScrape } from '../../host/metrics/workers.ts';

export interface CostRow {
  operation: string;
  cost: string;
}

const nsPer = (n: number, run: () => void): number => {
  const started = process.hrtime.bigint();
  run();
  return Number(process.hrtime.bigint() - started) / n;
};

export async function metricsCosts(): Promise<CostRow[]> {
  const N = 1_000_000;
  const metrics = new HostMetrics('main');
  let sink = 0n;
  const plain = { 'app:platform/event-store': { headSequence: () => 3n } };
  const timed = instrumentImports(plain, metrics) as typeof plain;
  const call = (f: () => bigint) => () => {
    for (let i = 0; i < N; i++) sink += f();
  };
  // Warm both paths before measuring.
  call(plain['app:platform/event-store'].headSequence)();
  call(timed['app:platform/event-store'].headSequence)();
  const plainNs = nsPer(N, call(plain['app:platform/event-store'].headSequence));
  const timedNs = nsPer(N, call(timed['app:platform/event-store'].headSequence));
  const exchangeNs = nsPer(N, () => {
    for (let i = 0; i < N; i++) {
      metrics.exchanges.inc({ method: 'GET', status: '200' });
      metrics.exchangeSeconds.observe({ method: 'GET' }, 0.002);
    }
  });
  // A registry as a busy host has it: every import function seen, several statuses.
  for (const fn of ['append', 'readStream', 'readAll', 'headSequence', 'get', 'set', 'acquire', 'Lease.append', 'publish', 'subscribe', 'Subscription.next', 'hash', 'verify']) {
    metrics.importSeconds.observe({ function: `app:platform/x#${fn}` }, 0.0003);
  }
  for (const status of ['200', '201', '204', '304', '400', '401', '404', '409', '503']) metrics.exchanges.inc({ method: 'POST', status });
  metrics.watch({
    pool: () => ({ idle: 2, busy: 1, waiting: 0, created: 3, discarded: 0, retired: 0 }),
    relay: () => ({ clients: 5, polls: 9, coalesced: 0, deferred: 0, cut: 0, heldBytes: 0 }),
  });
  const process_ = processRegistry(() => 0);
  const SCRAPES = 200;
  let bytes = 0;
  const started = performance.now();
  for (let i = 0; i < SCRAPES; i++) bytes = (await aggregateScrape(process_, [await metrics.registry.getMetricsAsJSON()])).body.length;
  const scrapeMs = (performance.now() - started) / SCRAPES;
  if (sink === 0n) console.log(''); // keep the calls observable
  return [
    { operation: 'sync WIT import call, plain', cost: `${plainNs.toFixed(0)} ns` },
    { operation: 'sync WIT import call, timed (histogram observe)', cost: `${timedNs.toFixed(0)} ns (+${(timedNs - plainNs).toFixed(0)} ns)` },
    { operation: 'one exchange: counter inc + histogram observe', cost: `${exchangeNs.toFixed(0)} ns` },
    { operation: `one scrape (${(bytes / 1024).toFixed(0)} KiB of text, process + host registries summed)`, cost: `${scrapeMs.toFixed(2)} ms` },
  ];
}
