/**
 * `npm run bench -- http`: GET view and POST increment at concurrency 16 on
 *   (a) this project's Node host (JSPI, instance pool), with one thread and with --workers 2,
 *   (b) the stock way to serve a JS component on Node: preview2-shim's HTTPServer (`jco serve`),
 *   (c) the same Hono routes natively on Node, without WebAssembly (the ceiling),
 *   (w) the service under `wasmtime serve` (file store, instances reused 128 times, as
 *       `npm run serve:wasmtime` runs it),
 *   (n) a bare `node:http` server answering the bytes of a cached GET view (bench/http/bare.ts):
 *       the yardstick of (a+)'s GET,
 * and the floor beside them: what a component built by the project's own build path for the
 * `hosted` world, using none of its imports, costs per request (bench/http/floor/):
 *   (d) on this Node host, (e) under `jco serve` (as b), (f) under `wasmtime serve` with the
 *       project's flags (as w),
 * in one run. Every target is started first; then each round runs every target's rows in turn
 * (alternating, so a machine shared with other work weighs on all alike), and the table gives each
 * row's median over the rounds, with the CPU the target's process used per answered request
 * (/proc/<pid>/stat). Prints a table (`--out <file.md>`: also keeps it, see docs/runs/).
 *
 * The host runs with its response cache off (a, a2) and on (a+, docs/response-cache.md); (a), (a+)
 * and (c) also run a 90/10 mix of GET view and POST increment.
 *
 * With `--base <checkout>` (another checkout, built), (a0) runs its Node host as (a) beside the
 * others, and (w0) its standalone component under `wasmtime serve` as (w) (built by its own
 * launcher): a change measured against the code before it in the same run.
 *
 *   node bench/http.ts [--duration-ms 5000] [--rounds 1] [--only a,a+,a2,b,c,n,d,e,f,w] [--base <dir>] [--out docs/runs/<date>-http.md]
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { freePort, startHost, tempDataDir } from '../harness/host-process.ts';
import { startWasmtime } from '../harness/wasmtime-process.ts';
import { startFloorWasmtime } from './http/floor/wasmtime.ts';
import { COUNTER_INCREMENT, COUNTER_VIEW, counterMix, runLoad, warmupFor, type LoadResult } from './lib/load.ts';
import { processCpuMs } from './lib/proc-cpu.ts';
import { median } from './lib/stats.ts';
import { fmt, markdownTable, OUT_OPTION, publish } from './lib/table.ts';

const { values } = parseArgs({
  options: {
    'duration-ms': { type: 'string', default: '5000' },
    rounds: { type: 'string', default: '1' },
    only: { type: 'string', default: 'a,a+,a2,b,c,n,d,e,f,w' },
    base: { type: 'string' },
    ...OUT_OPTION,
  },
});
const durationMs = Number(values['duration-ms']);
const rounds = Math.max(1, Number(values.rounds));
const CONCURRENCY = 16;

interface Server {
  url: string;
  /** The process whose CPU a request costs (the server itself, not a wrapper). */
  pid: number;
  stop(): Promise<unknown>;
}

const HOST = 'host/main.ts';
/** Each target on its own port and data directory; the comparison servers read them from PORT and DATA_DIR. */
async function startNode(entry: string, args: string[], root?: string, env: Record<string, string> = {}): Promise<Server> {
  const port = await freePort();
  const dataDir = tempDataDir('bench-');
  const server = await startHost({
    entry,
    args,
    port,
    dataDir,
    env: { PORT: String(port), DATA_DIR: dataDir, ...env },
    timeoutMs: 180_000,
    ...(root === undefined ? {} : { root, cwd: root }),
  });
  return { url: server.url, pid: server.child.pid!, stop: () => server.kill() };
}

interface Target {
  key: string;
  name: string;
  start(): Promise<Server>;
  /** Also the 90/10 mix. */
  mix?: boolean;
  /** GET view only (a server that answers nothing else). */
  getOnly?: boolean;
}

/**
 * (n)'s bytes: (a+)'s view after as many increments as the view lists events, so it is as long as
 * the view (a+) serves through the run (its GET rows follow POST rows from the first round on).
 */
async function startBare(): Promise<Server> {
  const cached = servers.get('a+');
  if (cached === undefined) throw new Error("(n) serves the bytes of (a+)'s view: run it with a+");
  for (let i = 0; i < 5; i++)
    await (await fetch(`${cached.url}/api/counter/increment`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"amount":1}' })).arrayBuffer();
  const answer = await fetch(`${cached.url}/api/counter/view`);
  const file = join(tempDataDir('bench-bare-'), 'view.json');
  writeFileSync(file, JSON.stringify({ body: await answer.text(), contentType: answer.headers.get('content-type') ?? 'application/json' }));
  return startNode('bench/http/bare.ts', [], undefined, { BARE_VIEW_FILE: file });
}

const ALL_TARGETS: Target[] = [
  { key: 'a', name: '(a) Node host (JSPI + pool), response cache off', start: () => startNode(HOST, ['--instances-min', '4', '--response-cache', 'off']), mix: true },
  ...(values.base === undefined
    ? []
    : [
        { key: 'a0', name: `(a0) Node host at ${values.base}, response cache off`, start: () => startNode(HOST, ['--instances-min', '4', '--response-cache', 'off'], values.base) },
      ]),
  { key: 'a+', name: '(a+) Node host, response cache on', start: () => startNode(HOST, ['--instances-min', '4']), mix: true },
  { key: 'a2', name: '(a2) Node host, --workers 2, response cache off', start: () => startNode(HOST, ['--instances-min', '4', '--workers', '2', '--response-cache', 'off']) },
  { key: 'b', name: '(b) preview2-shim HTTPServer', start: () => startNode('bench/http/stock-shim.ts', []) },
  { key: 'c', name: '(c) native Hono on Node', start: () => startNode('bench/http/native.ts', []), mix: true },
  { key: 'n', name: '(n) bare node:http, the bytes of a cached view', start: () => startBare(), getOnly: true },
  {
    key: 'w',
    name: '(w) wasmtime serve, reuse 128 (file store)',
    start: async () => {
      const server = await startWasmtime({ instanceReuse: 128, timeoutMs: 300_000 });
      return { url: server.url, pid: server.child.pid!, stop: () => server.stop() };
    },
  },
  ...(values.base === undefined
    ? []
    : [
        {
          key: 'w0',
          name: `(w0) wasmtime serve at ${values.base}, reuse 128 (file store)`,
          start: async () => {
            // That checkout's own launcher: its standalone build, its flags.
            const harness = (await import(pathToFileURL(join(resolve(values.base!), 'harness', 'wasmtime-process.ts')).href)) as typeof import('../harness/wasmtime-process.ts');
            const server = await harness.startWasmtime({ instanceReuse: 128, timeoutMs: 300_000 });
            return { url: server.url, pid: server.child.pid!, stop: () => server.stop() };
          },
        },
      ]),
  { key: 'd', name: '(d) floor: minimal component on the Node host', start: () => startNode('bench/http/floor/node-host.ts', ['--instances-min', '4', '--response-cache', 'off']) },
  { key: 'e', name: '(e) floor: minimal component under jco serve', start: () => startNode('bench/http/stock-shim.ts', ['--floor']) },
  { key: 'f', name: '(f) floor: minimal component under wasmtime serve, reuse 128', start: () => startFloorWasmtime() },
];
// (a0) runs wherever (a) does, (w0) wherever (w) does: their yardsticks.
const targets = ALL_TARGETS.filter((t) => values.only.split(',').includes(t.key === 'a0' ? 'a' : t.key === 'w0' ? 'w' : t.key));

type Sample = { result: LoadResult; cpuUs: number };
const samples = new Map<string, Sample[]>();
const routesOf = (target: Target) => [
  { route: 'GET /api/counter/view', run: (url: string) => runLoad(url, COUNTER_VIEW, spec) },
  ...(target.getOnly ? [] : [{ route: 'POST /api/counter/increment', run: (url: string) => runLoad(url, COUNTER_INCREMENT, spec) }]),
  ...(target.mix ? [{ route: 'mix 90/10', run: async (url: string) => (await counterMix(url, CONCURRENCY, durationMs)).result }] : []),
];
const spec = { concurrency: CONCURRENCY, durationMs, warmupMs: warmupFor(durationMs) };

const servers = new Map<string, Server>();
const notRun: string[] = [];
try {
  for (const target of targets) {
    try {
      servers.set(target.key, await target.start());
    } catch (error) {
      // A target whose tool is missing here (wac, wasmtime) is reported, not a reason to lose the others.
      notRun.push(`${target.name}: not run (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`);
    }
  }
  for (let round = 0; round < rounds; round++) {
    for (const target of targets) {
      const server = servers.get(target.key);
      if (server === undefined) continue;
      for (const { route, run } of routesOf(target)) {
        const cpuBefore = processCpuMs(server.pid);
        const result = await run(server.url);
        const cpuMs = processCpuMs(server.pid) - cpuBefore;
        // Warm-up requests count in the CPU too: per answered request over the whole run, warm-up included.
        const answered = result.requests * (1 + spec.warmupMs / durationMs);
        const key = `${target.name}\n${route}`;
        samples.set(key, [...(samples.get(key) ?? []), { result, cpuUs: answered > 0 ? (cpuMs * 1000) / answered : Number.NaN }]);
      }
    }
  }
} finally {
  for (const server of servers.values()) await server.stop();
}

/** The median round of a row (by throughput), and the median CPU per request. */
function summary(list: Sample[]): { result: LoadResult; cpuUs: number } {
  const sorted = [...list].sort((x, y) => x.result.throughput - y.result.throughput);
  return { result: sorted[Math.floor(sorted.length / 2)]!.result, cpuUs: median(list.map((s) => s.cpuUs)) };
}
const rows = [...samples].map(([key, list]) => {
  const [target, route] = key.split('\n') as [string, string];
  return { target, route, ...summary(list) };
});

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
const bare = get('n', 'GET');
if (cached && bare)
  ratios.push(`(a+)/(n) cached GET view against a bare node:http server answering the same bytes: ${(cached.throughput / bare.throughput).toFixed(2)}× (goal ≥ 1.0×)`);
if (mixOn && mixOff) ratios.push(`(a+)/(a) 90/10 mix throughput: ${(mixOn.throughput / mixOff.throughput).toFixed(1)}× (goal ≥ 3×)`);
const floorRatio = (service: string, floor: string, goal: number) => {
  const s = get(service, 'POST'),
    f = get(floor, 'POST');
  if (s && f) ratios.push(`(${service})/(${floor}) POST throughput against the floor: ${((s.throughput / f.throughput) * 100).toFixed(0)}% (goal ≥ ${goal}%)`);
};
floorRatio('a', 'd', 50);
const cpuOf = (key: string, route: string) => rows.find((r) => r.target.startsWith(`(${key})`) && r.route.startsWith(route))?.cpuUs;
const cpuNow = cpuOf('a', 'POST'),
  cpuBase = cpuOf('a0', 'POST');
if (cpuNow !== undefined && cpuBase !== undefined)
  ratios.push(`(a)/(a0) host CPU per POST: ${fmt(cpuNow, 0)} against ${fmt(cpuBase, 0)} µs (${fmt((cpuNow / cpuBase - 1) * 100, 0)}%, goal −30%)`);
floorRatio('w', 'f', 20);
floorRatio('w0', 'f', 20);
const wNow = cpuOf('w', 'POST'),
  wBase = cpuOf('w0', 'POST');
if (wNow !== undefined && wBase !== undefined) ratios.push(`(w)/(w0) wasmtime CPU per POST: ${fmt(wNow, 0)} against ${fmt(wBase, 0)} µs (${fmt((wNow / wBase - 1) * 100, 0)}%)`);
const table = markdownTable(
  ['target', 'route', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'CPU µs/req'],
  rows.map((r) => [r.target, r.route, fmt(r.result.throughput), fmt(r.result.p50), fmt(r.result.p99), r.result.errors, fmt(r.cpuUs, 0)]),
  ['l', 'l', 'r', 'r', 'r', 'r', 'r'],
);
const report = `Concurrency ${CONCURRENCY}, ${durationMs} ms measured per row after warm-up, ${rounds} round(s) alternating between the targets (medians), SQLite (w: the file store), one 2-core machine, load generator on the same machine. CPU: the target's process, warm-up included.\n\n${table}\n\n${[...ratios, ...notRun].map((r) => `- ${r}`).join('\n')}\n`;
publish('HTTP benchmark (npm run bench -- http)', report, values.out);
