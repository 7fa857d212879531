/**
 * `npm run bench -- http`: GET view and POST increment at concurrency 16 on
 *   (a) this project's Node host (JSPI, instance pool), with one thread and with --workers 2,
 *   (b) the stock way to serve a JS component on Node: preview2-shim's HTTPServer (`jco serve`),
 *   (c) the same Hono routes natively on Node, without WebAssembly (the ceiling),
 * all on SQLite, in one run. Prints a table (`--out <file.md>`: also keeps it, see docs/runs/).
 *
 * The host runs with its response cache off (a, a2) and on (a+, docs/response-cache.md); (a), (a+)
 * and (c) also run a 90/10 mix of GET view and POST increment.
 *
 *   node bench/http.ts [--duration-ms 5000] [--only a,a+,a2,b,c] [--out docs/runs/<date>-http.md]
 */
import { parseArgs } from 'node:util';
import { freePort, startHost, tempDataDir } from '../harness/host-process.ts';
import { counterMix, counterRoutes, loadTable, type LoadResult } from './lib/load.ts';
import { fmt, OUT_OPTION, publish } from './lib/table.ts';

const { values } = parseArgs({ options: { 'duration-ms': { type: 'string', default: '5000' }, only: { type: 'string', default: 'a,a+,a2,b,c' }, ...OUT_OPTION } });
const durationMs = Number(values['duration-ms']);
const CONCURRENCY = 16;

const HOST = 'host/main.ts';
const targets = [
  { key: 'a', name: '(a) Node host (JSPI + pool), response cache off', entry: HOST, args: ['--instances-min', '4', '--response-cache', 'off'] },
  { key: 'a+', name: '(a+) Node host, response cache on', entry: HOST, args: ['--instances-min', '4'] },
  { key: 'a2', name: '(a2) Node host, --workers 2, response cache off', entry: HOST, args: ['--instances-min', '4', '--workers', '2', '--response-cache', 'off'] },
  { key: 'b', name: '(b) preview2-shim HTTPServer', entry: 'bench/http/stock-shim.ts', args: [] },
  { key: 'c', name: '(c) native Hono on Node', entry: 'bench/http/native.ts', args: [] },
].filter((t) => values.only.split(',').includes(t.key));

/** Each target on its own port and data directory; the comparison servers read them from PORT and DATA_DIR. */
async function startTarget(entry: string, args: string[]) {
  const port = await freePort();
  const dataDir = tempDataDir('bench-');
  const server = await startHost({ entry, args, port, dataDir, env: { PORT: String(port), DATA_DIR: dataDir }, timeoutMs: 120_000 });
  return { url: server.url, stop: () => server.kill() };
}

type Row = { target: string; route: string; result: LoadResult };
const rows: Row[] = [];
for (const target of targets) {
  const server = await startTarget(target.entry, target.args);
  try {
    for (const { route, result } of await counterRoutes(server.url, CONCURRENCY, durationMs)) rows.push({ target: target.name, route, result });
    if (['a', 'a+', 'c'].includes(target.key)) {
      const { route, result } = await counterMix(server.url, CONCURRENCY, durationMs);
      rows.push({ target: target.name, route, result });
    }
  } finally {
    await server.stop();
  }
}

const get = (key: string, route: string) => rows.find((r) => r.target.startsWith(`(${key})`) && r.route.startsWith(route))?.result;
const ratios: string[] = [];
const b = get('b', 'GET'),
  c = get('c', 'GET');
for (const key of ['a', 'a2']) {
  const a = get(key, 'GET'),
    ap = get(key, 'POST');
  if (a && b) ratios.push(`(${key})/(b) GET view throughput: ${(a.throughput / b.throughput).toFixed(1)}× (goal ≥ 20×)`);
  if (a && c) ratios.push(`(${key})/(c) GET view throughput: ${((a.throughput / c.throughput) * 100).toFixed(0)}% (goal ≥ 35%)`);
  if (a && ap) ratios.push(`(${key}) p99: GET ${fmt(a.p99)} ms, POST ${fmt(ap.p99)} ms (goal ≤ 25 ms)`);
}
const cached = get('a+', 'GET'),
  mixOff = get('a', 'mix'),
  mixOn = get('a+', 'mix');
if (cached && c)
  ratios.push(
    `(a+)/(c) GET view throughput with the response cache: ${((cached.throughput / c.throughput) * 100).toFixed(0)}% (goal ≥ 50%), p99 ${fmt(cached.p99)} ms (goal ≤ 10 ms)`,
  );
if (mixOn && mixOff) ratios.push(`(a+)/(a) 90/10 mix throughput: ${(mixOn.throughput / mixOff.throughput).toFixed(1)}× (goal ≥ 3×)`);
const table = loadTable(
  ['target', 'route'],
  rows.map((r) => [r.target, r.route, r.result] as const),
);
const report = `Concurrency ${CONCURRENCY}, ${durationMs} ms measured per row after warm-up, SQLite, one 2-core machine, load generator on the same machine.\n\n${table}\n\n${ratios.map((r) => `- ${r}`).join('\n')}\n`;
publish('HTTP benchmark (npm run bench -- http)', report, values.out);
