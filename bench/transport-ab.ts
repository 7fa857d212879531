/**
 * What serving gRPC beside HTTP (`--transport both`) costs the HTTP path: two Node hosts on
 * SQLite, `--transport http` and `--transport both`, measured in alternating rounds of the same
 * run (GET /api/counter/view and POST /api/counter/increment, closed loop, the lean HTTP/1.1
 * client), so drifts of the shared machine hit both alike.
 *
 *   npm run bench -- transport [--rounds 3] [--duration-ms 5000] [--concurrency 8] [--out docs/runs/<date>-transport.md]
 */
import { parseArgs } from 'node:util';
import { startHost } from '../harness/host-process.ts';
import { COUNTER_INCREMENT, COUNTER_VIEW, runLoad, type LoadResult } from './lib/load.ts';
import { fmt, markdownTable, OUT_OPTION, publish } from './lib/table.ts';
import { median } from './lib/stats.ts';

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '3' }, 'duration-ms': { type: 'string', default: '5000' }, concurrency: { type: 'string', default: '8' }, ...OUT_OPTION },
});
const rounds = Number(values.rounds);
const durationMs = Number(values['duration-ms']);
const concurrency = Number(values.concurrency);

const routes = [
  ['GET /api/counter/view', COUNTER_VIEW],
  ['POST /api/counter/increment', COUNTER_INCREMENT],
] as const;

const measure = (url: string, request: (typeof routes)[number][1]): Promise<LoadResult> => runLoad(url, request, { concurrency, durationMs, warmupMs: 1000 });

const startOn = async (transport: string) => ({ transport, ...(await startHost({ args: ['--transport', transport], timeoutMs: 120_000 })) });
const hosts = [await startOn('http'), await startOn('both')];
const results = new Map<string, LoadResult[]>();
try {
  for (let round = 0; round < rounds; round++) {
    // Alternate which goes first, so neither always follows the other's load.
    const order = round % 2 === 0 ? hosts : [...hosts].reverse();
    for (const [label, request] of routes) {
      for (const host of order) {
        const key = `${label}|${host.transport}`;
        const result = await measure(host.url, request);
        results.set(key, [...(results.get(key) ?? []), result]);
      }
    }
  }
} finally {
  await Promise.all(hosts.map((host) => host.kill()));
}

const rows = routes.flatMap(([label]) =>
  ['http', 'both'].map((transport) => {
    const runs = results.get(`${label}|${transport}`) ?? [];
    const medianOf = (pick: (r: LoadResult) => number) => fmt(median(runs.map(pick)));
    return [label, transport, runs.map((r) => fmt(r.throughput)).join(', '), medianOf((r) => r.throughput), medianOf((r) => r.p50), medianOf((r) => r.p99)];
  }),
);
publish(
  'Transport benchmark (npm run bench -- transport)',
  `${rounds} alternating rounds, concurrency ${concurrency}, ${durationMs} ms measured per row after 1 s warm-up, SQLite.\n\n${markdownTable(
    ['route', 'transport', 'req/s per round', 'median req/s', 'median p50 ms', 'median p99 ms'],
    rows,
    ['l', 'l', 'l', 'r', 'r', 'r'],
  )}\n`,
  values.out,
);
