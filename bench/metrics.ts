/**
 * `npm run bench -- metrics`: what --metrics-port costs. The same host (SQLite, response cache off,
 * so every request runs the guest and its imports are timed) with metrics off and on, GET view
 * and POST increment at concurrency 16, in one run. With metrics on, /metrics is scraped every
 * `--scrape-ms` during the load (default 1000: far more often than Prometheus' usual 15 s).
 * Rounds alternate the order (off then on, then on then off) so that a change of machine load
 * touches both alike. Then the per-operation costs measured in-process (bench/metrics/cost.ts),
 * which machine load disturbs far less than throughput. Prints both tables.
 *
 *   node bench/metrics.ts [--duration-ms 4000] [--rounds 2] [--scrape-ms 1000] [--out docs/runs/<date>-metrics.md]
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { freePort, startHost as startHostProcess } from '../harness/host-process.ts';
import { counterRoutes, loadTable, type LoadResult } from './lib/load.ts';
import { mean } from './lib/stats.ts';
import { markdownTable, OUT_OPTION, publish } from './lib/table.ts';
import { metricsCosts } from './metrics/cost.ts';

const { values } = parseArgs({
  options: { 'duration-ms': { type: 'string', default: '4000' }, rounds: { type: 'string', default: '2' }, 'scrape-ms': { type: 'string', default: '1000' }, ...OUT_OPTION },
});
const durationMs = Number(values['duration-ms']);
const rounds = Number(values.rounds);
const scrapeMs = Number(values['scrape-ms']);
const CONCURRENCY = 16;

async function startHost(metrics: boolean) {
  const metricsPort = await freePort();
  const args = ['--instances-min', '4', '--response-cache', 'off', ...(metrics ? ['--metrics-port', String(metricsPort)] : [])];
  const host = await startHostProcess({ args, timeoutMs: 120_000 });
  let scrapes = 0;
  const timer = metrics
    ? setInterval(() => {
        void fetch(`http://127.0.0.1:${metricsPort}/metrics`)
          .then((r) => r.text())
          .then(() => scrapes++)
          .catch(() => undefined); // the host is being stopped
      }, scrapeMs)
    : undefined;
  return {
    url: host.url,
    stop: async () => {
      clearInterval(timer);
      await host.kill();
      return scrapes;
    },
  };
}

const rows: Array<[string, string, LoadResult]> = [];
const load = loadavg()[0]!;
let scrapes = 0;
for (let round = 1; round <= rounds; round++) {
  for (const metrics of round % 2 === 1 ? [false, true] : [true, false]) {
    const host = await startHost(metrics);
    try {
      for (const { route, result } of await counterRoutes(host.url, CONCURRENCY, durationMs)) rows.push([`${round}: metrics ${metrics ? 'on' : 'off'}`, route, result]);
    } finally {
      scrapes += await host.stop();
    }
  }
}
const meanThroughput = (on: boolean, route: string) => mean(rows.filter(([label, r]) => label.endsWith(on ? 'on' : 'off') && r.startsWith(route)).map(([, , r]) => r.throughput));
const ratios = ['GET', 'POST'].map(
  (route) => `- ${route}: metrics on / off throughput ${((meanThroughput(true, route) / meanThroughput(false, route)) * 100).toFixed(1)}% (mean of ${rounds} rounds)`,
);
const costs = await metricsCosts();
const costTable = markdownTable(
  ['operation', 'cost'],
  costs.map((c) => [c.operation, c.cost]),
  ['l', 'r'],
);
publish(
  'Metrics benchmark (npm run bench -- metrics)',
  `Concurrency ${CONCURRENCY}, ${durationMs} ms measured per row after warm-up, SQLite, response cache off, ${scrapes} scrapes every ${scrapeMs} ms while on; load average ${load.toFixed(2)} at start (${new Date().toISOString()}).\n\n${loadTable(['run', 'route'], rows)}\n\n${ratios.join('\n')}\n\n${costTable}\n`,
  values.out,
);
