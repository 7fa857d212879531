/**
 * `npm run bench`: GET view and POST increment at concurrency 16 on
 *   (a) this project's Node host (JSPI, instance pool), with one thread and with --workers 2,
 *   (b) the stock way to serve a JS component on Node: preview2-shim's HTTPServer (`jco serve`),
 *   (c) the same Hono routes natively on Node, without WebAssembly (the ceiling),
 * all on SQLite, in one run. Prints a table and writes docs/bench-http.md.
 *
 * The host runs with its response cache off (a, a2) and on (a+, docs/response-cache.md); (a), (a+)
 * and (c) also run a 90/10 mix of GET view and POST increment.
 *
 *   node bench/http.ts [--duration-ms 5000] [--only a,a+,a2,b,c]
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { freePort, tempDataDir } from '../test/support/host-process.ts';
import { counterMix, counterRoutes, fmt, loadTable, type LoadResult } from './load.ts';

const root = join(import.meta.dirname, '..');
const { values } = parseArgs({ options: { 'duration-ms': { type: 'string', default: '5000' }, only: { type: 'string', default: 'a,a+,a2,b,c' } } });
const durationMs = Number(values['duration-ms']);
const CONCURRENCY = 16;

const targets = [
  { key: 'a', name: '(a) Node host (JSPI + pool), response cache off', script: ['host/main.ts', '--instances-min', '4', '--response-cache', 'off'], portFlag: true },
  { key: 'a+', name: '(a+) Node host, response cache on', script: ['host/main.ts', '--instances-min', '4'], portFlag: true },
  {
    key: 'a2',
    name: '(a2) Node host, --workers 2, response cache off',
    script: ['host/main.ts', '--instances-min', '4', '--workers', '2', '--response-cache', 'off'],
    portFlag: true,
  },
  { key: 'b', name: '(b) preview2-shim HTTPServer', script: ['bench/servers/stock-shim.ts'], portFlag: false },
  { key: 'c', name: '(c) native Hono on Node', script: ['bench/servers/native.ts'], portFlag: false },
].filter((t) => values.only.split(',').includes(t.key));

async function startTarget(script: string[], portFlag: boolean) {
  const port = await freePort();
  const dataDir = tempDataDir('bench-');
  const args = portFlag ? [...script, '--port', String(port), '--data-dir', dataDir] : script;
  const child = spawn(
    process.execPath,
    args.map((a, i) => (i === 0 ? join(root, a) : a)),
    {
      cwd: root,
      env: { ...process.env, PORT: String(port), DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (c: Buffer) => {
      if (c.toString().includes('host_listening')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`${args[0]} exited with ${code}`)));
  });
  child.stdout.resume();
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((r) => {
        child.once('exit', () => r());
        child.kill('SIGKILL');
      }),
  };
}

type Row = { target: string; route: string; result: LoadResult };
const rows: Row[] = [];
for (const target of targets) {
  const server = await startTarget(target.script, target.portFlag);
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
console.log(report);
mkdirSync(join(root, 'docs'), { recursive: true });
writeFileSync(join(root, 'docs', 'bench-http.md'), `# HTTP benchmark (npm run bench)\n\nMeasured ${new Date().toISOString().slice(0, 10)}.\n\n${report}`);
