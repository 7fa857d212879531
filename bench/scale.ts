/**
 * `npm run bench -- scale`: write throughput on one counter stream as hosts are added.
 * One run, 24 clients sending `{"amount":1}` increments back to back, split evenly over the hosts
 * (real host processes), `--duration-ms` per row after `--warmup-ms`: 1 host on SQLite; 1, 2, 3
 * hosts on PostgreSQL; 1, 2, 3 hosts on Redis; then one PostgreSQL host at 16 clients. Columns:
 * req/s, p50, p99, non-200 answers, store round trips per command with 1 and with 16 clients
 * (measured in process by harness/round-trips.ts: pg queries, Redis commands, SQLite guest
 * store calls), and where the CPU went during the measured window: host processes', the store
 * server's and this load generator's CPU ms per command, and how busy the machine's cores were
 * (bench/lib/proc-cpu.ts).
 * The load generator runs on the same cores, so a row whose cores are ~100% busy is limited by the
 * machine, not the design; it is the lean keep-alive client of every benchmark (bench/lib/load.ts)
 * for that reason.
 *
 *   node bench/scale.ts [--duration-ms 10000] [--warmup-ms 3000] [--clients 24] [--only sqlite,redis] [--out docs/runs/<date>-scale.md]
 */
import { parseArgs } from 'node:util';
import { startHost, type HostProcess } from '../harness/host-process.ts';
import { roundTripsPerCommand } from '../harness/round-trips.ts';
import { isolation, POSTGRES_URL, REDIS_URL, sharedServers } from '../harness/servers.ts';
import { Http1Client } from './lib/http1-client.ts';
import { COUNTER_INCREMENT, runClosedLoop, withClients } from './lib/load.ts';
import { machineBusy, machineSample, namedProcessesCpuMs, namedProcessesDeltaMs, processCpuMs } from './lib/proc-cpu.ts';
import { fmt, markdownTable, OUT_OPTION, publish } from './lib/table.ts';

const { values } = parseArgs({
  options: {
    'duration-ms': { type: 'string', default: '10000' },
    'warmup-ms': { type: 'string', default: '3000' },
    clients: { type: 'string', default: '24' },
    /** Only the rows of these backends (comma-separated), e.g. to compare two builds quickly. */
    only: { type: 'string' },
    ...OUT_OPTION,
  },
});
const DURATION_MS = Number(values['duration-ms']);
const WARMUP_MS = Number(values['warmup-ms']);
const CLIENTS = Number(values.clients);

type Backend = 'sqlite' | 'postgres' | 'redis';
interface Row {
  setup: string;
  backend: Backend;
  rps: number;
  p50: number;
  p99: number;
  non200: number;
  answered: number;
  /** CPU ms of every host process, of the store server's processes and of this load generator, per 200 answer */
  hostCpuMs: number;
  storeCpuMs: number;
  loadCpuMs: number;
  /** share of all cores busy during the measured window (0..1) */
  busy: number;
}

/** The store server's process names (PostgreSQL backends and postmaster, redis-server). */
const STORE_PROCESSES: Record<Backend, string[]> = { sqlite: [], postgres: ['postgres'], redis: ['redis-server'] };

interface CpuSample {
  hosts: number;
  load: NodeJS.CpuUsage;
  store: Map<number, number>;
  machine: ReturnType<typeof machineSample>;
}

const servers = isolation('benchscale');

function argsFor(backend: Backend): string[] {
  if (backend === 'postgres') return ['--db', 'postgres', '--postgres-url', POSTGRES_URL, '--postgres-schema', servers.schema()];
  if (backend === 'redis') return ['--db', 'redis', '--redis-url', REDIS_URL, '--redis-prefix', servers.prefix()];
  return [];
}

async function row(backend: Backend, hostCount: number, clients: number): Promise<Row> {
  const args = argsFor(backend);
  const hosts: HostProcess[] = await Promise.all(Array.from({ length: hostCount }, () => startHost({ args, timeoutMs: 60_000 })));
  try {
    const sample = (): CpuSample => ({
      hosts: hosts.reduce((sum, h) => sum + processCpuMs(h.child.pid ?? 0), 0),
      load: process.cpuUsage(),
      store: namedProcessesCpuMs(STORE_PROCESSES[backend]),
      machine: machineSample(),
    });
    const measuredFrom = new Promise<CpuSample>((resolve) => setTimeout(() => resolve(sample()), WARMUP_MS));
    // Clients are spread evenly over the hosts; only 200 counts as answered.
    const result = await withClients(
      clients,
      (i) => new Http1Client(hosts[i % hostCount]!.url, COUNTER_INCREMENT),
      (each) => runClosedLoop(async (i) => (await each[i]!.send()) === 200, { concurrency: clients, durationMs: DURATION_MS, warmupMs: WARMUP_MS }),
    );
    const to = sample();
    const from = await measuredFrom;
    const answered = Math.max(1, result.requests);
    return {
      setup: `${hostCount} host${hostCount > 1 ? 's' : ''}, ${backend}, ${clients} clients`,
      backend,
      rps: result.throughput,
      p50: result.p50,
      p99: result.p99,
      non200: result.errors,
      answered: result.requests + result.errors,
      hostCpuMs: (to.hosts - from.hosts) / answered,
      storeCpuMs: namedProcessesDeltaMs(from.store, to.store) / answered,
      loadCpuMs: (to.load.user + to.load.system - from.load.user - from.load.system) / 1000 / answered,
      busy: machineBusy(from.machine, to.machine),
    };
  } finally {
    await Promise.all(hosts.map((h) => h.kill()));
  }
}

const missing = await sharedServers();
if (missing !== undefined) throw new Error(`bench scale needs PostgreSQL and Redis: ${missing}`);

/** Store round trips per command, sequentially (1 client) and under 16 concurrent clients (group commit). */
const tripsOf = async (backend: Backend): Promise<string> => {
  const args = argsFor(backend);
  const alone = await roundTripsPerCommand(backend, args);
  const busy = await roundTripsPerCommand(backend, args, 320, 160, 16);
  return `${alone.toFixed(2)}; ${busy.toFixed(2)}`;
};
const trips: Record<Backend, string> = { sqlite: await tripsOf('sqlite'), postgres: await tripsOf('postgres'), redis: await tripsOf('redis') };

const rows: Row[] = [];
try {
  const plan: Array<[Backend, number, number]> = [
    ['sqlite', 1, CLIENTS],
    ['postgres', 1, CLIENTS],
    ['postgres', 2, CLIENTS],
    ['postgres', 3, CLIENTS],
    ['redis', 1, CLIENTS],
    ['redis', 2, CLIENTS],
    ['redis', 3, CLIENTS],
    ['postgres', 1, 16],
  ];
  const only = values.only?.split(',');
  for (const [backend, hosts, clients] of plan.filter(([b]) => only === undefined || only.includes(b))) {
    const result = await row(backend, hosts, clients);
    rows.push(result);
    console.error(`${result.setup}: ${result.rps.toFixed(0)} req/s`);
  }
} finally {
  await servers.cleanup();
}

const sqlite = rows.find((r) => r.backend === 'sqlite')?.rps ?? Number.NaN;
const lines = [
  `${DURATION_MS} ms per row after ${WARMUP_MS} ms warm-up.`,
  '',
  markdownTable(
    [
      'setup',
      'req/s',
      'p50 ms',
      'p99 ms',
      'non-200',
      'store round trips / command (1; 16 clients)',
      'host CPU ms / command',
      'store CPU ms / command',
      'load generator CPU ms / command',
      'cores busy',
    ],
    rows.map((r) => [
      r.setup,
      r.rps.toFixed(0),
      fmt(r.p50, 1),
      fmt(r.p99, 1),
      `${r.non200} of ${r.answered}`,
      trips[r.backend],
      r.hostCpuMs.toFixed(2),
      r.storeCpuMs.toFixed(2),
      r.loadCpuMs.toFixed(2),
      `${(r.busy * 100).toFixed(0)}%`,
    ]),
    ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
  ),
  '',
];
const three = (b: Backend) => rows.find((r) => r.backend === b && r.setup.startsWith('3 hosts'));
for (const b of ['postgres', 'redis'] as const) {
  const r = three(b);
  if (r === undefined) continue;
  lines.push(`- 3 hosts on ${b}: ${(r.rps / sqlite).toFixed(2)} × one SQLite host (goal ≥ 0.75), p99 ${r.p99.toFixed(0)} ms (goal ≤ 150), non-200 ${r.non200} (goal 0)`);
}
const pg16 = rows.find((r) => r.backend === 'postgres' && r.setup.endsWith('16 clients'));
if (pg16 !== undefined) lines.push(`- 1 PostgreSQL host at 16 clients: ${pg16.rps.toFixed(0)} req/s (goal ≥ 250)`);
publish('Several hosts on one store (npm run bench -- scale)', `${lines.join('\n')}\n`, values.out);
