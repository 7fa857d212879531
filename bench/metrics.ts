/**
 * `npm run bench:metrics`: what --metrics-port costs. The same host (SQLite, response cache off,
 * so every request runs the guest and its imports are timed) with metrics off and on, GET view
 * and POST increment at concurrency 16, in one run. With metrics on, /metrics is scraped every
 * `--scrape-ms` during the load (default 1000: far more often than Prometheus' usual 15 s).
 * Rounds alternate the order (off then on, then on then off) so that a change of machine load
 * touches both alike. Then the per-operation costs measured in-process (bench/metrics-cost.ts),
 * which machine load disturbs far less than throughput. Prints both tables.
 *
 *   node bench/metrics.ts [--duration-ms 4000] [--rounds 2] [--scrape-ms 1000]
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { freePort, tempDataDir } from '../test/support/host-process.ts';
import { counterRoutes, loadTable, type LoadResult } from './load.ts';
import { metricsCosts } from './metrics-cost.ts';

const root = join(import.meta.dirname, '..');
const { values } = parseArgs({
  options: { 'duration-ms': { type: 'string', default: '4000' }, rounds: { type: 'string', default: '2' }, 'scrape-ms': { type: 'string', default: '1000' } },
});
const durationMs = Number(values['duration-ms']);
const rounds = Number(values.rounds);
const scrapeMs = Number(values['scrape-ms']);
const CONCURRENCY = 16;

async function startHost(metrics: boolean) {
  const [port, metricsPort] = [await freePort(), await freePort()];
  const args = ['--port', String(port), '--data-dir', tempDataDir('bench-metrics-'), '--instances-min', '4', '--response-cache', 'off'];
  if (metrics) args.push('--metrics-port', String(metricsPort));
  const child = spawn(process.execPath, [join(root, 'host', 'main.ts'), ...args], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (c: Buffer) => c.toString().includes('host_listening') && resolve());
    child.once('exit', (code) => reject(new Error(`the host exited with ${code}`)));
  });
  child.stdout.resume();
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
    url: `http://127.0.0.1:${port}`,
    stop: () => {
      clearInterval(timer);
      return new Promise<number>((resolve) => {
        child.once('exit', () => resolve(scrapes));
        child.kill('SIGKILL');
      });
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
const mean = (on: boolean, route: string) => {
  const picked = rows.filter(([label, r]) => label.endsWith(on ? 'on' : 'off') && r.startsWith(route)).map(([, , r]) => r.throughput);
  return picked.reduce((a, b) => a + b, 0) / picked.length;
};
const ratios = ['GET', 'POST'].map((route) => `- ${route}: metrics on / off throughput ${((mean(true, route) / mean(false, route)) * 100).toFixed(1)}% (mean of ${rounds} rounds)`);
const costs = await metricsCosts();
const costTable = ['| operation | cost |', '|---|---:|', ...costs.map((c) => `| ${c.operation} | ${c.cost} |`)].join('\n');
console.log(
  `Concurrency ${CONCURRENCY}, ${durationMs} ms measured per row after warm-up, SQLite, response cache off, ${scrapes} scrapes every ${scrapeMs} ms while on; load average ${load.toFixed(2)} at start (${new Date().toISOString()}).\n\n${loadTable(['run', 'route'], rows)}\n\n${ratios.join('\n')}\n\n${costTable}\n`,
);
