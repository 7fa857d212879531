/**
 * `npm run bench -- realtime`: what live updates cost on one host, and increment throughput per
 * storage backend, in one run.
 *
 *  1. One host (SQLite, realtime local), N concurrent SSE clients (default 500): time to open
 *     them, host RSS before and with them open, time from one command to the LAST client's frame
 *     (p50/p99 over several commands), and REST GET p99 without streams and while they are open.
 *     Three times: with the host holding the streams (`--stream-relay on`, the default), the same
 *     with two worker threads (`--workers 2`), and with each stream holding its own guest
 *     instance (`--stream-relay off`, fewer clients: 6.5 MiB each).
 *  2. POST increment throughput at concurrency 16 on SQLite, PostgreSQL (a random schema) and
 *     Redis (a random prefix).
 *
 * Prints the tables (`--out <file.md>`: also keeps them, see docs/runs/).
 *
 *   node bench/realtime.ts [--clients 500] [--guest-held-clients 100] [--workers 2] [--commands 20] [--duration-ms 3000] [--only streams,throughput] [--out docs/runs/<date>-realtime.md]
 */
import http from 'node:http';
import { parseArgs } from 'node:util';
import { startHost as startHostProcess } from '../harness/host-process.ts';
import { isolation, POSTGRES_URL, REDIS_URL, sharedServers } from '../harness/servers.ts';
import { COUNTER_INCREMENT, COUNTER_VIEW, runLoad, type LoadResult } from './lib/load.ts';
import { residentMiB } from './lib/proc-memory.ts';
import { openBenchSse, type BenchSseClient } from './lib/sse-clients.ts';
import { ascending, percentile } from './lib/stats.ts';
import { fmt, markdownTable, OUT_OPTION, publish } from './lib/table.ts';

const { values } = parseArgs({
  options: {
    clients: { type: 'string', default: '500' },
    'guest-held-clients': { type: 'string', default: '100' },
    workers: { type: 'string', default: '2' },
    commands: { type: 'string', default: '20' },
    'duration-ms': { type: 'string', default: '3000' },
    only: { type: 'string', default: 'streams,throughput' },
    ...OUT_OPTION,
  },
});
const CLIENTS = Number(values.clients);
const GUEST_HELD_CLIENTS = Number(values['guest-held-clients']);
/** The relay design is measured again with this many worker threads (1: not again). */
const WORKERS = Number(values.workers);
const COMMANDS = Number(values.commands);
const DURATION_MS = Number(values['duration-ms']);
const CONCURRENCY = 16;
/** Streams are opened this many at a time. */
const OPEN_BATCH = 25;
const parts = values.only.split(',');

interface Host {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

async function startHost(args: string[]): Promise<Host> {
  const host = await startHostProcess({ args, timeoutMs: 120_000 });
  return { url: host.url, pid: host.child.pid!, stop: () => host.kill() };
}

async function increment(url: string): Promise<number> {
  const response = await fetch(`${url}/api/counter/increment`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"amount":1}' });
  if (response.status !== 200) throw new Error(`increment answered ${response.status}`);
  return ((await response.json()) as { last_sequence: number }).last_sequence;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

type Design = { relay: boolean; workers: number };
const designName = (d: Design) => `${d.relay ? 'relay' : 'guest-held'}${d.workers > 1 ? `, ${d.workers} workers` : ''}`;

interface StreamsResult {
  design: Design;
  clients: number;
  /** POST latency of the same commands before any stream is open: the part of the delivery time that is not fan-out. */
  commandAlone: number[];
  openSeconds: number;
  rssIdle: number;
  rssOpen: number;
  lastFrame: number[];
  medianFrame: number[];
  getBefore: LoadResult;
  getDuring: LoadResult;
  /** One request at a time: the latency itself, without the load generator's own queueing. */
  getDuringSerial: LoadResult;
  /** Again after the streams closed: tells the streams' cost from the machine's load drifting. */
  getAfter: LoadResult;
}

async function timedCommands(url: string, count: number, each: (sequence: number, started: number) => Promise<void>): Promise<void> {
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const sequence = await increment(url);
    await each(sequence, started);
    await sleep(200);
  }
}

async function benchStreams(design: Design, count: number): Promise<StreamsResult> {
  // Guest-held: each open stream holds one guest instance, so the pool must allow all of them.
  const host = await startHost([
    '--stream-relay',
    design.relay ? 'on' : 'off',
    '--workers',
    String(design.workers),
    '--instances-min',
    '4',
    '--instances-max',
    String(count + 64),
    // Every client connects from 127.0.0.1: the per-client limit (128 by default) would refuse most.
    '--client-exchange-limit',
    '0',
    '--shutdown-grace-ms',
    '100',
  ]);
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const clients: BenchSseClient[] = [];
  try {
    await increment(host.url);
    const getSpec = { concurrency: CONCURRENCY, durationMs: DURATION_MS, warmupMs: 1000 };
    const getBefore = await runLoad(host.url, COUNTER_VIEW, getSpec);
    const commandAlone: number[] = [];
    await timedCommands(host.url, COMMANDS, async (_sequence, started) => void commandAlone.push(performance.now() - started));
    const rssIdle = residentMiB(host.pid);

    const openStart = performance.now();
    while (clients.length < count) {
      const batch = Array.from({ length: Math.min(OPEN_BATCH, count - clients.length) }, () => openBenchSse(`${host.url}/api/counter/stream`, agent));
      clients.push(...batch);
      await Promise.all(batch.map((client) => client.opened));
    }
    const openSeconds = (performance.now() - openStart) / 1000;
    await sleep(1000); // let every stream reach its pub/sub wait
    const rssOpen = residentMiB(host.pid);

    const lastFrame: number[] = [];
    const medianFrame: number[] = [];
    await timedCommands(host.url, COMMANDS, async (sequence, started) => {
      const arrivals = await Promise.all(clients.map((client) => client.arrival(sequence)));
      const latencies = arrivals.map((at) => at - started).sort((a, b) => a - b);
      lastFrame.push(latencies.at(-1)!);
      medianFrame.push(percentile(latencies, 50));
    });
    const getDuring = await runLoad(host.url, COUNTER_VIEW, getSpec);
    const getDuringSerial = await runLoad(host.url, COUNTER_VIEW, { ...getSpec, concurrency: 1 });
    for (const client of clients.splice(0)) client.close();
    await sleep(2000); // the guests notice their clients left and return to the pool
    const getAfter = await runLoad(host.url, COUNTER_VIEW, getSpec);
    return { design, clients: count, commandAlone, openSeconds, rssIdle, rssOpen, lastFrame, medianFrame, getBefore, getDuring, getDuringSerial, getAfter };
  } finally {
    for (const client of clients) client.close();
    agent.destroy();
    await host.stop();
  }
}

interface ThroughputRow {
  backend: string;
  concurrency: number;
  result: LoadResult;
}

async function benchThroughput(): Promise<ThroughputRow[]> {
  const rows: ThroughputRow[] = [];
  const unavailable = await sharedServers();
  const servers = isolation('bench');
  const backends: Array<{ backend: string; args: string[] }> = [{ backend: 'sqlite', args: ['--db', 'sqlite'] }];
  if (unavailable === undefined) {
    backends.push(
      { backend: 'postgres', args: ['--db', 'postgres', '--postgres-url', POSTGRES_URL, '--postgres-schema', servers.schema()] },
      { backend: 'redis', args: ['--db', 'redis', '--redis-url', REDIS_URL, '--redis-prefix', servers.prefix()] },
    );
  } else {
    console.error(`skipping postgres and redis: ${unavailable}`);
  }
  try {
    for (const { backend, args } of backends) {
      const host = await startHost([...args, '--instances-min', '4']);
      try {
        // c=1: the cost of one command; c=16: writers racing on the one counter stream.
        for (const concurrency of [1, CONCURRENCY]) {
          const result = await runLoad(host.url, COUNTER_INCREMENT, { concurrency, durationMs: DURATION_MS, warmupMs: 1000 });
          rows.push({ backend, concurrency, result });
        }
      } finally {
        await host.stop();
      }
    }
  } finally {
    await servers.cleanup();
  }
  return rows;
}

const sections: string[] = [];
if (parts.includes('streams')) {
  const runs = [await benchStreams({ relay: true, workers: 1 }, CLIENTS)];
  if (WORKERS > 1) runs.push(await benchStreams({ relay: true, workers: WORKERS }, CLIENTS));
  if (GUEST_HELD_CLIENTS > 0) runs.push(await benchStreams({ relay: false, workers: 1 }, GUEST_HELD_CLIENTS));
  const row = (measure: string, cell: (s: StreamsResult) => string, goal = '') => [measure, ...runs.map(cell), goal];
  const p99Last = (s: StreamsResult) => percentile(ascending(s.lastFrame), 99);
  const relayed = runs.filter((s) => s.design.relay);
  const goal = (ok: (s: StreamsResult) => boolean) => relayed.map((s) => `${designName(s.design)} ${ok(s) ? '✓' : '✗'}`).join(', ');
  sections.push(
    `One host (SQLite, realtime local), ${COMMANDS} commands; the host holds the streams (\`--stream-relay on\`), with one thread or \`--workers ${WORKERS}\`, or each stream holds a guest instance (\`off\`):\n\n` +
      markdownTable(
        ['measure', ...runs.map((s) => `${designName(s.design)}, ${s.clients} clients`), 'goal'],
        [
          row(
            'POST increment alone, no streams open, p50 / p99',
            (s) => `${fmt(percentile(ascending(s.commandAlone), 50))} / ${fmt(percentile(ascending(s.commandAlone), 99))} ms`,
          ),
          row(`open the streams (${OPEN_BATCH} at a time)`, (s) => `${fmt(s.openSeconds, 1)} s`),
          row('host RSS before streams / with them open', (s) => `${fmt(s.rssIdle)} / ${fmt(s.rssOpen)} MiB`),
          row('RSS per open stream', (s) => `${fmt(((s.rssOpen - s.rssIdle) * 1024) / s.clients)} KiB`),
          row("command → last client's frame, p50", (s) => `${fmt(percentile(ascending(s.lastFrame), 50))} ms`),
          row("command → last client's frame, p99", (s) => `${fmt(p99Last(s))} ms`, `≤ 1000 ms (${CLIENTS}): ${goal((s) => p99Last(s) <= 1000)}`),
          row("command → median client's frame, p50", (s) => `${fmt(percentile(ascending(s.medianFrame), 50))} ms`),
          row(`GET /api/counter/view p99, no streams (c=${CONCURRENCY})`, (s) => `${fmt(s.getBefore.p99, 1)} ms`),
          row(`GET /api/counter/view p99, streams open (c=${CONCURRENCY})`, (s) => `${fmt(s.getDuring.p99, 1)} ms`, `≤ 50 ms (${CLIENTS}): ${goal((s) => s.getDuring.p99 <= 50)}`),
          row('GET /api/counter/view p50 / p99, streams open (c=1)', (s) => `${fmt(s.getDuringSerial.p50, 1)} / ${fmt(s.getDuringSerial.p99, 1)} ms`),
          row(`GET /api/counter/view p99, after the streams closed (c=${CONCURRENCY})`, (s) => `${fmt(s.getAfter.p99, 1)} ms`),
          row('GET /api/counter/view req/s: before / open / after', (s) => `${fmt(s.getBefore.throughput)} / ${fmt(s.getDuring.throughput)} / ${fmt(s.getAfter.throughput)}`),
        ],
        ['l', ...runs.map(() => 'r' as const), 'r'],
      ),
  );
}
if (parts.includes('throughput')) {
  const rows = await benchThroughput();
  sections.push(
    `POST /api/counter/increment per backend, ${DURATION_MS} ms measured after 1 s warm-up, realtime local:\n\n` +
      markdownTable(
        ['backend', 'concurrency', 'req/s', 'p50 ms', 'p99 ms', 'errors'],
        rows.map((r) => [r.backend, r.concurrency, fmt(r.result.throughput), fmt(r.result.p50, 1), fmt(r.result.p99, 1), r.result.errors]),
        ['l', 'r', 'r', 'r', 'r', 'r'],
      ),
  );
}

const report = `${sections.join('\n\n')}\n\nEverything on one 2-core machine shared with other work; the load generator and the ${CLIENTS} clients compete with the host for the same cores.\n`;
publish('Realtime benchmark (npm run bench -- realtime)', report, values.out);
