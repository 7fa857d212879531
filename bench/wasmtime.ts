/**
 * `npm run bench -- wasmtime`: GET view and POST increment at concurrency 16, in one run, on
 *   (a) the Node host (JSPI + instance pool, SQLite),
 *   (b) wasmtime serve, a fresh instance per request (the default), file store,
 *   (c) wasmtime serve with instances reused for up to 128 requests (`--instance-reuse 128`),
 * plus how long wasmtime takes to answer its first request from the precompiled .cwasm vs the
 * .wasm (compiled at start, or found in wasmtime's own compilation cache). Realtime is `polling`
 * everywhere (the only live mode wasmtime has). Prints a table (`--out <file.md>`: also keeps it).
 *
 *   node bench/wasmtime.ts [--duration-ms 5000] [--skip-jit-start] [--out docs/runs/<date>-wasmtime.md]
 */
import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { COMPONENT, wasmtimeVersion } from '../scripts/wasmtime/prepare.ts';
import { wasmtimeServeArgs } from '../scripts/wasmtime/serve-args.ts';
import { freePort, startHost, tempDataDir } from '../harness/host-process.ts';
import { prepareWasmtimeComponent, startWasmtime } from '../harness/wasmtime-process.ts';
import { counterRoutes, loadTable, type LoadResult } from './lib/load.ts';
import { markdownTable, OUT_OPTION, publish } from './lib/table.ts';

const root = join(import.meta.dirname, '..');
const { values } = parseArgs({ options: { 'duration-ms': { type: 'string', default: '5000' }, 'skip-jit-start': { type: 'boolean', default: false }, ...OUT_OPTION } });
const durationMs = Number(values['duration-ms']);
const CONCURRENCY = 16;
const wasmtime = process.env['WASMTIME'] ?? 'wasmtime';

console.log('preparing: hosted and standalone builds, wasmtime compile');
execFileSync(process.execPath, [join(root, 'scripts', 'build.ts'), '--variant', 'hosted'], { stdio: ['ignore', 'inherit', 'inherit'] });
const precompiled = prepareWasmtimeComponent(wasmtime);

interface Target {
  name: string;
  start(): Promise<{ url: string; stop(): Promise<unknown> }>;
}

const targets: Target[] = [
  { name: '(a) Node host (JSPI + pool, SQLite)', start: () => startHost({ args: ['--realtime', 'polling', '--instances-min', '4'] }) },
  { name: '(b) wasmtime serve, fresh instance per request', start: () => startWasmtime({}, wasmtime) },
  { name: '(c) wasmtime serve, instance reused ×128', start: () => startWasmtime({ instanceReuse: 128 }, wasmtime) },
];

type Row = { target: string; route: string; result: LoadResult };
const rows: Row[] = [];
for (const target of targets) {
  console.log(`running ${target.name}`);
  const server = await target.start();
  try {
    for (const { route, result } of await counterRoutes(server.url, CONCURRENCY, durationMs)) rows.push({ target: target.name, route, result });
  } finally {
    await server.stop();
  }
}

/** Milliseconds from spawning `wasmtime serve` to its first successful answer. */
async function timeToServe(component: string, extra: string[] = []): Promise<number> {
  const port = await freePort();
  const config = { port, host: '127.0.0.1', dataDir: tempDataDir('bench-start-'), transport: 'http' as const, realtime: 'polling' as const, instanceReuse: 1 };
  const started = performance.now();
  const args = wasmtimeServeArgs(config, component, {});
  args.splice(args.length - 1, 0, ...extra);
  const child = spawn(wasmtime, args, { stdio: 'ignore' });
  try {
    for (;;) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/api/counter/view`)).ok) return performance.now() - started;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  } finally {
    child.kill('SIGKILL');
  }
}

console.log('measuring start-up');
const startRows = [['precompiled .cwasm (`wasmtime compile`, cached by the launcher)', await timeToServe(precompiled)]] as Array<[string, number]>;
if (!values['skip-jit-start']) {
  startRows.push(['.wasm, compiled at start (`-C cache=n`: a first start, or no cache)', await timeToServe(COMPONENT, ['-C', 'cache=n'])]);
  await timeToServe(COMPONENT); // fills wasmtime's own compilation cache (~/.cache/wasmtime)
  startRows.push([".wasm, found in wasmtime's compilation cache (a later start)", await timeToServe(COMPONENT)]);
}

const table = loadTable(
  ['target', 'route'],
  rows.map((r) => [r.target, r.route, r.result] as const),
);
const startTable = markdownTable(
  ['wasmtime serve start-up', 'until the first answer'],
  startRows.map(([name, ms]) => [name, `${(ms / 1000).toFixed(1)} s`]),
  ['l', 'r'],
);
const report =
  `${wasmtimeVersion(wasmtime)}; concurrency ${CONCURRENCY}, ${durationMs} ms measured per row after warm-up, realtime polling, ` +
  `one 2-core machine shared with other work, load generator on the same machine.\n\n${table}\n\n${startTable}\n`;
publish('wasmtime serve benchmark (npm run bench -- wasmtime)', report, values.out);
