/**
 * `npm run bench -- grpc`: the same commands over gRPC and REST on one host (transport both), in
 * one run: unary Increment with @grpc/grpc-js (one HTTP/2 connection, calls multiplexed) against
 * POST /api/counter/increment over HTTP/1.1 keep-alive (one connection per worker), and the
 * GetCounterView / GET view pair. Prints a table (`--out <file.md>`: also keeps it, see docs/runs/).
 *
 *   node bench/grpc.ts [--duration-ms 3000] [--out docs/runs/<date>-grpc.md]
 */
import { parseArgs } from 'node:util';
import { ChangeCounterRequestSchema, CounterViewSchema, GetCounterViewRequestSchema } from '../src/gen/counter_pb.js';
import { CounterClient } from '../harness/grpc.ts';
import { startHost } from '../harness/host-process.ts';
import { COUNTER_INCREMENT, COUNTER_VIEW, loadTable, runClosedLoop, runLoad, warmupFor, type LoadResult, type LoopSpec } from './lib/load.ts';
import { OUT_OPTION, publish } from './lib/table.ts';

const { values } = parseArgs({ options: { 'duration-ms': { type: 'string', default: '3000' }, ...OUT_OPTION } });
const durationMs = Number(values['duration-ms']);
const CONCURRENCY = 16;
const loop: LoopSpec = { concurrency: CONCURRENCY, durationMs, warmupMs: warmupFor(durationMs) };

const host = await startHost({ args: ['--transport', 'both', '--instances-min', '4'], timeoutMs: 120_000 });
const client = new CounterClient(`127.0.0.1:${host.port}`);
const rows: Array<{ transport: string; call: string; result: LoadResult }> = [];
const grpcIncrement = (spec: LoopSpec) =>
  runClosedLoop(async () => (await client.unary('Increment', ChangeCounterRequestSchema, CounterViewSchema, { amount: 1 })).count !== undefined, spec);
const restIncrement = (spec: LoopSpec) => runLoad(host.url, COUNTER_INCREMENT, spec);
const grpcView = (spec: LoopSpec) =>
  runClosedLoop(async () => (await client.unary('GetCounterView', GetCounterViewRequestSchema, CounterViewSchema, {})).count !== undefined, spec);
const restView = (spec: LoopSpec) => runLoad(host.url, COUNTER_VIEW, spec);
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
  await host.kill();
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
publish('gRPC benchmark (npm run bench -- grpc)', report, values.out);
