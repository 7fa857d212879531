/**
 * `npm run bench -- profile`: where a write's time goes. Starts a host (SQLite, transport both,
 * response cache off, metrics on) running the profiling build of the component (build/hosted-
 * profile: phase marks on the guest's monotonic clock, src/platform/profile.ts), drives the
 * increment through each surface at c=1 and c=16 (REST POST, the counter page's server function,
 * gRPC Increment), and prints per surface the guest's phases (p50, mean, share of the guest's
 * time), then the wall time of a command split into the guest, the host's import work inside it
 * (the host's own import histogram) and what lies outside the guest (Node's HTTP, the host's
 * exchange, jco's glue around the export call, the load client).
 *
 *   node scripts/build.ts --variant profile   (once; `npm run bench -- profile` does it)
 *   node bench/profile.ts [--duration-ms 8000] [--out docs/runs/<date>-write-profile.md]
 */
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { ChangeCounterRequestSchema, CounterViewSchema } from '../src/gen/counter_pb.js';
import { CounterClient } from '../harness/grpc.ts';
import { freePort, startHost } from '../harness/host-process.ts';
import type { Http1Request } from './lib/http1-client.ts';
import { guestPhases } from './lib/guest-phases.ts';
import { importTotals, type ImportTotals } from './lib/import-totals.ts';
import { COUNTER_INCREMENT, runClosedLoop, runLoad, warmupFor, type LoadResult, type LoopSpec } from './lib/load.ts';
import { ascending, mean, percentile } from './lib/stats.ts';
import { fmt, markdownTable, OUT_OPTION, publish } from './lib/table.ts';

const { values } = parseArgs({ options: { 'duration-ms': { type: 'string', default: '8000' }, ...OUT_OPTION } });
const durationMs = Number(values['duration-ms']);

const SERVER_FUNCTION_INCREMENT: Http1Request = { ...COUNTER_INCREMENT, path: '/api/increment_count' };

interface Surface {
  name: string;
  /** The exchange's `METHOD path` in the guest's profile lines. */
  route: string;
  load(spec: LoopSpec): Promise<LoadResult>;
}

const metricsPort = await freePort();
const host = await startHost({
  entry: 'bench/profile/host.ts',
  args: ['--transport', 'both', '--response-cache', 'off', '--instances-min', '4', '--metrics-port', String(metricsPort)],
  timeoutMs: 120_000,
});
const grpc = new CounterClient(`127.0.0.1:${host.port}`);

const surfaces: Surface[] = [
  { name: 'REST POST /api/counter/increment', route: 'POST /api/counter/increment', load: (spec) => runLoad(host.url, COUNTER_INCREMENT, spec) },
  { name: 'server function increment_count', route: 'POST /api/increment_count', load: (spec) => runLoad(host.url, SERVER_FUNCTION_INCREMENT, spec) },
  {
    name: 'gRPC Increment (grpc-js, one HTTP/2 connection)',
    route: 'POST /counter.v1.CounterService/Increment',
    load: (spec) => runClosedLoop(async () => (await grpc.unary('Increment', ChangeCounterRequestSchema, CounterViewSchema, { amount: 1 })).count !== undefined, spec),
  },
];

/**
 * Per function, the host's microseconds and calls per command between two readings. The host
 * times each method of a lease (host/metrics/imports.ts), and `appendAndEnd` calls `append` in
 * it: `nested` marks that one, left out of the sums so it is not counted twice.
 */
function importsPerCommand(before: ImportTotals, after: ImportTotals, commands: number) {
  return [...after]
    .map(([name, a]) => ({ name, us: ((a.seconds - (before.get(name)?.seconds ?? 0)) * 1e6) / commands, calls: (a.calls - (before.get(name)?.calls ?? 0)) / commands }))
    .filter((row) => row.calls > 0)
    .map((row) => ({ ...row, nested: row.name.endsWith('#Lease.append') && after.has(row.name.replace('#Lease.append', '#Lease.appendAndEnd')) }));
}

const sections: string[] = [];
const summary: Array<[string, string, string, string, string, string, string, string]> = [];
try {
  for (const surface of surfaces) {
    for (const concurrency of [1, 16]) {
      // Warm every instance the pool will use first (a fresh instance is several times slower).
      await surface.load({ concurrency, durationMs: warmupFor(durationMs), warmupMs: 0 });
      await new Promise((resolve) => setTimeout(resolve, 300));
      const from = host.output.length;
      const before = await importTotals(metricsPort);
      const result = await surface.load({ concurrency, durationMs, warmupMs: 0 });
      const after = await importTotals(metricsPort);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const phases = guestPhases(host.output, from, surface.route);
      const totals = phases.get('total') ?? [];
      const guestMean = mean(totals);
      const rows = [...phases]
        .filter(([name]) => name !== 'total')
        .map(([name, samples]) => ({ name, p50: percentile(ascending(samples), 50), mean: mean(samples) }))
        .sort((a, b) => b.mean - a.mean);
      const commands = result.requests + result.errors;
      const imports = importsPerCommand(before, after, commands);
      const own = imports.filter((row) => !row.nested);
      const importMs = own.reduce((sum, row) => sum + row.us, 0) / 1000;
      const callsPer = own.reduce((sum, row) => sum + row.calls, 0);
      sections.push(
        `### ${surface.name}, c=${concurrency}\n\n${result.requests} answers in ${durationMs / 1000} s (${fmt(result.throughput)} req/s, ${result.errors} errors), ${totals.length} exchanges profiled.\n\n${markdownTable(
          ['phase', 'p50 µs', 'mean µs', 'share of the guest'],
          [
            ...rows.map((r) => [r.name, fmt(r.p50, 0), fmt(r.mean, 0), `${fmt((r.mean / guestMean) * 100, 1)}%`]),
            ['**guest total** (handle entered → response written)', fmt(percentile(ascending(totals), 50), 0), fmt(guestMean, 0), '100%'],
          ],
          ['l', 'r', 'r', 'r'],
        )}\n\nThe host's side of the import calls (its import histogram, per command):\n\n${markdownTable(
          ['import', 'calls', 'host µs'],
          imports.map((row) => [row.nested ? `${row.name} (inside appendAndEnd, not summed)` : row.name, fmt(row.calls, 2), fmt(row.us, 0)]),
          ['l', 'r', 'r'],
        )}`,
      );
      const wallMean = result.throughput > 0 ? (concurrency * 1000) / result.throughput : Number.NaN;
      summary.push([
        surface.name,
        String(concurrency),
        fmt(result.throughput),
        fmt(result.p50),
        fmt(wallMean),
        fmt(guestMean / 1000),
        `${fmt(importMs, 3)} (${fmt(callsPer, 1)} calls)`,
        fmt(wallMean - guestMean / 1000),
      ]);
    }
  }
} finally {
  grpc.close();
  await host.stop();
}

const report = `Machine: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), load average ${loadavg()
  .map((l) => l.toFixed(1))
  .join(' ')} at the end; shared with other work. One host (SQLite, transport both, response cache off,
4 warm instances at least) running the profiling build; each row after a warm-up of its own, ${durationMs / 1000} s.

## Where the wall time goes (means per command, ms)

Wall: the client's time per command at that concurrency (c / throughput; with c=16 it includes
waiting for the turn and for the thread). Guest: from the guest's handler being entered to its
response written (its own monotonic clock). Host imports: the host's work inside the guest's import
calls (its import histogram), part of the guest's time. Outside the guest: wall − guest.

${markdownTable(['surface', 'c', 'req/s', 'p50 ms', 'wall ms', 'guest ms', 'host imports ms', 'outside the guest ms'], summary, ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r'])}

## The guest's phases

Each phase is the guest's time from the mark before it to its own (src/platform/profile.ts); an
\`import:\` phase is the import call as the guest sees it: the host's work, jco's lifting and
lowering and componentize-js's bindings. \`app\` is what remains between the handler's return and
the response (Hono's composition, promise resolution); \`release, deferred work\` includes the
projection's advance every 32 commands.

${sections.join('\n\n')}
`;
publish('Where a write’s time goes (npm run bench -- profile)', report, values.out);
// grpc-js keeps a timer alive after close.
process.exit(0);
