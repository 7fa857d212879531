/**
 * `npm run bench:grpc`: the same commands over gRPC and REST on one host (transport both), in
 * one run: unary Increment with @grpc/grpc-js (one HTTP/2 connection, calls multiplexed) against
 * POST /api/counter/increment over HTTP/1.1 keep-alive (one connection per worker), and the
 * GetCounterView / GET view pair. Prints a table and writes docs/bench-grpc.md.
 *
 *   node bench/grpc.ts [--duration-ms 3000]
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ChangeCounterRequestSchema, CounterViewSchema, GetCounterViewRequestSchema } from '../src/gen/counter_pb.js';
import { CounterClient } from '../test/support/grpc.ts';
import { freePort, tempDataDir } from '../test/support/host-process.ts';
import { loadTable, runClosedLoop, runLoad, type LoadResult } from './load.ts';

const root = join(import.meta.dirname, '..');
const { values } = parseArgs({ options: { 'duration-ms': { type: 'string', default: '3000' } } });
const durationMs = Number(values['duration-ms']);
const CONCURRENCY = 16;
const loop = { concurrency: CONCURRENCY, durationMs, warmupMs: Math.min(2000, durationMs / 2) };

const port = await freePort();
const child = spawn(
  process.execPath,
  [join(root, 'host', 'main.ts'), '--port', String(port), '--data-dir', tempDataDir('bench-grpc-'), '--transport', 'both', '--instances-min', '4'],
  {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
await new Promise<void>((resolve, reject) => {
  child.stdout.on('data', (c: Buffer) => {
    if (c.toString().includes('host_listening')) resolve();
  });
  child.once('exit', (code) => reject(new Error(`the host exited with ${code}`)));
});
child.stdout.resume();

const url = `http://127.0.0.1:${port}`;
const client = new CounterClient(`127.0.0.1:${port}`);
const rows: Array<{ transport: string; call: string; result: LoadResult }> = [];
const grpcIncrement = (spec: typeof loop) =>
  runClosedLoop(async () => (await client.unary('Increment', ChangeCounterRequestSchema, CounterViewSchema, { amount: 1 })).count !== undefined, spec);
const restIncrement = (spec: typeof loop) =>
  runLoad({ ...spec, url: `${url}/api/counter/increment`, method: 'POST', body: '{"amount":1}', headers: { 'content-type': 'application/json' } });
const grpcView = (spec: typeof loop) =>
  runClosedLoop(async () => (await client.unary('GetCounterView', GetCounterViewRequestSchema, CounterViewSchema, {})).count !== undefined, spec);
const restView = (spec: typeof loop) => runLoad({ ...spec, url: `${url}/api/counter/view`, method: 'GET' });
try {
  // Warm every instance the pool will use on both paths first (a fresh instance is ~4× slower),
  // so neither side is measured on cold instances.
  const warm = { ...loop, durationMs: 0, warmupMs: loop.warmupMs };
  for (const run of [grpcIncrement, restIncrement, grpcView, restView]) await run(warm);
  rows.push({ transport: 'gRPC (grpc-js, HTTP/2)', call: 'Increment', result: await grpcIncrement(loop) });
  rows.push({ transport: 'REST (HTTP/1.1)', call: 'POST /api/counter/increment', result: await restIncrement(loop) });
  rows.push({ transport: 'gRPC (grpc-js, HTTP/2)', call: 'GetCounterView', result: await grpcView(loop) });
  rows.push({ transport: 'REST (HTTP/1.1)', call: 'GET /api/counter/view', result: await restView(loop) });
} finally {
  client.close();
  child.kill('SIGKILL');
}

const table = loadTable(
  ['transport', 'call'],
  rows.map((r) => [r.transport, r.call, r.result] as const),
);
const ratio = (a: LoadResult, b: LoadResult) => `${((a.throughput / b.throughput) * 100).toFixed(0)}%`;
const report =
  `Concurrency ${CONCURRENCY}, ${durationMs} ms measured per row after warm-up, one host (transport both, SQLite), ` +
  `one 2-core machine, load generator on the same machine.\n\n${table}\n\n` +
  `- gRPC/REST throughput: Increment ${ratio(rows[0]!.result, rows[1]!.result)}, view ${ratio(rows[2]!.result, rows[3]!.result)}\n`;
console.log(report);
mkdirSync(join(root, 'docs'), { recursive: true });
writeFileSync(join(root, 'docs', 'bench-grpc.md'), `# gRPC benchmark (npm run bench:grpc)\n\nMeasured ${new Date().toISOString().slice(0, 10)}.\n\n${report}`);
