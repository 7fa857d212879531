/**
 * `npm run bench:scale` (issue 15): write throughput on one counter stream as hosts are added.
 * One run, 24 clients sending `{"amount":1}` increments back to back, split evenly over the hosts
 * (real host processes), `--duration-ms` per row after `--warmup-ms`: 1 host on SQLite; 1, 2, 3
 * hosts on PostgreSQL; 1, 2, 3 hosts on Redis; then one PostgreSQL host at 16 clients. Columns:
 * req/s, p50, p99, non-200 answers, store round trips per command with 1 and with 16 clients
 * (measured in process by test/support/round-trips.ts: pg queries, Redis commands, SQLite guest
 * store calls), and where the CPU went during the measured window: host processes', the store
 * server's and this load generator's CPU ms per command, and how busy the machine's cores were
 * (bench/cpu-sample.ts).
 * The load generator runs on the same cores, so a row whose cores are ~100% busy is limited by the
 * machine, not the design; it is a lean keep-alive client (bench/http1-client.ts) for that reason
 * (`--client fetch` measures with `fetch` instead, as before 2026-11-26).
 *
 *   node bench/scale.ts [--duration-ms 10000] [--warmup-ms 3000] [--clients 24] [--only sqlite,redis] [--client lean|fetch]
 */
import { parseArgs } from 'node:util';
import { Http1Client } from './http1-client.ts';
import { startHost, type HostProcess } from '../test/support/host-process.ts';
import { roundTripsPerCommand } from '../test/support/round-trips.ts';
import { isolation, POSTGRES_URL, REDIS_URL, sharedServers } from '../test/support/servers.ts';
import { increment, percentile } from '../test/support/write-load.ts';
import { machineBusy, machineSample, namedProcessesCpuMs, namedProcessesDeltaMs, processCpuMs } from './cpu-sample.ts';

const { values } = parseArgs({
  options: {
    'duration-ms': { type: 'string', default: '10000' },
    'warmup-ms': { type: 'string', default: '3000' },
    clients: { type: 'string', default: '24' },
    /** Only the rows of these backends (comma-separated), e.g. to compare two builds quickly. */
    only: { type: 'string' },
    client: { type: 'string', default: 'lean' },
  },
});
if (values.client !== 'lean' && values.client !== 'fetch') throw new Error('--client is lean or fetch');
const CLIENT = values.client;
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

const INCREMENT = { method: 'POST', path: '/api/counter/increment', headers: { 'content-type': 'application/json' }, body: '{"amount":1}' } as const;

function argsFor(backend: Backend): string[] {
  if (backend === 'postgres') return ['--db', 'postgres', '--postgres-url', POSTGRES_URL, '--postgres-schema', servers.schema()];
  if (backend === 'redis') return ['--db', 'redis', '--redis-url', REDIS_URL, '--redis-prefix', servers.prefix()];
  return [];
}

async function row(backend: Backend, hostCount: number, clients: number): Promise<Row> {
  const args = argsFor(backend);
  const hosts: HostProcess[] = await Promise.all(Array.from({ length: hostCount }, () => startHost({ args, timeoutMs: 60_000 })));
  try {
    const latencies: number[] = [];
    let non200 = 0;
    const warmEnd = performance.now() + WARMUP_MS;
    const end = warmEnd + DURATION_MS;
    const sample = (): CpuSample => ({
      hosts: hosts.reduce((sum, h) => sum + processCpuMs(h.child.pid ?? 0), 0),
      load: process.cpuUsage(),
      store: namedProcessesCpuMs(STORE_PROCESSES[backend]),
      machine: machineSample(),
    });
    const measuredFrom = new Promise<CpuSample>((resolve) => setTimeout(() => resolve(sample()), WARMUP_MS));
    await Promise.all(
      Array.from({ length: clients }, async (_, i) => {
        const url = hosts[i % hostCount]!.url;
        const client = CLIENT === 'lean' ? new Http1Client(url, INCREMENT) : undefined;
        const send = client ? () => client.send() : async () => (await increment(url)).status;
        try {
          while (performance.now() < end) {
            const started = performance.now();
            const status = await send();
            if (started < warmEnd) continue;
            if (status === 200) latencies.push(performance.now() - started);
            else non200++;
          }
        } finally {
          client?.close();
        }
      }),
    );
    const to = sample();
    const from = await measuredFrom;
    latencies.sort((a, b) => a - b);
    const answered = Math.max(1, latencies.length);
    return {
      setup: `${hostCount} host${hostCount > 1 ? 's' : ''}, ${backend}, ${clients} clients`,
      backend,
      rps: latencies.length / (DURATION_MS / 1000),
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      non200,
      answered: latencies.length + non200,
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
if (missing !== undefined) throw new Error(`bench:scale needs PostgreSQL and Redis: ${missing}`);

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
console.log(`bench:scale ${new Date().toISOString()}, ${DURATION_MS} ms per row after ${WARMUP_MS} ms warm-up, ${CLIENT} client\n`);
console.log(
  '| setup | req/s | p50 ms | p99 ms | non-200 | store round trips / command (1; 16 clients) | host CPU ms / command | store CPU ms / command | load generator CPU ms / command | cores busy |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const r of rows) {
  console.log(
    `| ${r.setup} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.non200} of ${r.answered} | ${trips[r.backend]} | ${r.hostCpuMs.toFixed(2)} | ${r.storeCpuMs.toFixed(2)} | ${r.loadCpuMs.toFixed(2)} | ${(r.busy * 100).toFixed(0)}% |`,
  );
}
const three = (b: Backend) => rows.find((r) => r.backend === b && r.setup.startsWith('3 hosts'));
for (const b of ['postgres', 'redis'] as const) {
  const r = three(b);
  if (r === undefined) continue;
  console.log(`\n3 hosts on ${b}: ${(r.rps / sqlite).toFixed(2)} × one SQLite host (goal ≥ 0.75), p99 ${r.p99.toFixed(0)} ms (goal ≤ 150), non-200 ${r.non200} (goal 0)`);
}
const pg16 = rows.find((r) => r.backend === 'postgres' && r.setup.endsWith('16 clients'));
if (pg16 !== undefined) console.log(`1 PostgreSQL host at 16 clients: ${pg16.rps.toFixed(0)} req/s (goal ≥ 250)`);
