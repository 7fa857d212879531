/**
 * `npm run bench -- overload`: what one client can do to a host. Each attack of bench/overload/attacks.ts
 * runs alone against a fresh host (`--transport both`, SQLite, a temporary data directory, a free
 * loopback port) while a probe asks for a cached view (`GET /api/counter/view`) and an uncached one
 * (the same path with a query never asked before, which the response cache cannot answer) every
 * 250 ms on new connections, and a few legitimate clients increment and read the counter back to
 * back. A row without an attacker is the baseline of legitimate throughput, measured first and
 * again last: the table's baseline is the mean of the two, as the first alone was measured while
 * the machine and the load generator were still warming up (it came out below most attack rows).
 * The attacker runs in a process of its own (bench/overload/attacker.ts), so its event loop does
 * not delay the probes' and legitimate clients' timing; it still shares the machine's cores with
 * the host. Everyone connects from an address of its own, as distinct users on distinct machines
 * would (Linux routes all of 127/8 to loopback): the attacker from 127.0.0.2, legitimate client i
 * from 127.0.1.i (127.0.1.1 to 127.0.1.4), the probes from 127.0.1.100. The host's per-client
 * limit (--client-exchange-limit, read from the environment like every option:
 * CLIENT_EXCHANGE_LIMIT=0 measures without it) and each client's fair share of the guest
 * (host/admission/fair-share.ts) tell them apart.
 *
 * Per row: the host's peak RSS (sampled every 250 ms), probe success and p50/p99 latency, the
 * host's and the attacker's CPU seconds (/proc/<pid>/stat), 503 answers seen by anyone, the host's
 * error-level log lines, legitimate throughput as a
 * share of the baseline, and what the attacker saw. The goals are printed beside them. A host whose
 * RSS passes --rss-cap-mib is killed so the machine survives; the row says so.
 *
 *   node bench/overload.ts [--only pipelined,watch] [--seconds 10] [--sse-clients 2000]
 *                          [--root <checkout whose host runs>] [--rss-cap-mib 2048] [--out <file.md>]
 */
import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { ROOT, startHost, type HostProcess } from '../harness/host-process.ts';
import { Http1Client } from './lib/http1-client.ts';
import { COUNTER_INCREMENT, COUNTER_VIEW, runClosedLoop, withClients } from './lib/load.ts';
import { processCpuMs } from './lib/proc-cpu.ts';
import { residentBytes } from './lib/proc-memory.ts';
import { ascending, percentile } from './lib/stats.ts';
import { fmt, markdownTable, OUT_OPTION, publish } from './lib/table.ts';
import { ATTACKS, type Attack } from './overload/attacks.ts';

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    seconds: { type: 'string', default: '10' },
    'sse-clients': { type: 'string', default: '2000' },
    root: { type: 'string', default: ROOT },
    'rss-cap-mib': { type: 'string', default: '2048' },
    ...OUT_OPTION,
  },
});
const SECONDS = Number(values.seconds);
const RSS_CAP = Number(values['rss-cap-mib']) * 1024 * 1024;
const only = values.only?.split(',');
for (const name of only ?? []) if (!ATTACKS.some((a) => a.name === name)) throw new Error(`unknown attack ${name}; known: ${ATTACKS.map((a) => a.name).join(', ')}`);

/** The goals: RSS within the default memory budget, probes answered within 1 s, legitimate traffic kept. */
const GOALS = { rssMiB: 512, probeMs: 1_000, legitimatePercent: 80 };
const PROBE_EVERY_MS = 250;
const PROBE_TIMEOUT_MS = 5_000;
/** Legitimate clients, each alternating POST increment and GET view on its own keep-alive connections. */
const LEGITIMATE_CLIENTS = 4;
/** Where legitimate client i (from 0) connects from: a user of its own. */
const legitimateAddress = (i: number) => `127.0.1.${i + 1}`;
/** Where the probes connect from. */
const PROBE_ADDRESS = '127.0.1.100';
/** Time the attack gets to take hold before the row is measured. */
const SETTLE_MS = 1_500;

interface ProbeStats {
  sent: number;
  latencies: number[];
  rejected: number;
}

/** A probe of one target every 250 ms, each on a new connection; latency of the answers with status 200. */
function startProbe(url: string, path: (n: number) => string) {
  const stats: ProbeStats = { sent: 0, latencies: [], rejected: 0 };
  const pending = new Set<Promise<void>>();
  const timer = setInterval(() => {
    const client = new Http1Client(url, { method: 'GET', path: path(stats.sent++) }, PROBE_TIMEOUT_MS, PROBE_ADDRESS);
    const t0 = performance.now();
    const done = client.send().then((status) => {
      client.close();
      if (status === 200) stats.latencies.push(performance.now() - t0);
      if (status === 503) stats.rejected++;
    });
    pending.add(done);
    void done.finally(() => pending.delete(done));
  }, PROBE_EVERY_MS);
  return {
    stats,
    async stop(): Promise<ProbeStats> {
      clearInterval(timer);
      await Promise.all(pending);
      return { ...stats, latencies: ascending(stats.latencies) };
    },
  };
}

/** Legitimate traffic for `ms`: increments and views from a few clients; successful operations per second. */
async function legitimate(url: string, ms: number): Promise<{ perSecond: number; rejected: number }> {
  let rejected = 0;
  const writeNext = Array.from({ length: LEGITIMATE_CLIENTS }, () => true);
  const reads = Array.from({ length: LEGITIMATE_CLIENTS }, (_, i) => new Http1Client(url, COUNTER_VIEW, PROBE_TIMEOUT_MS, legitimateAddress(i)));
  const result = await withClients(
    LEGITIMATE_CLIENTS,
    (i) => new Http1Client(url, COUNTER_INCREMENT, PROBE_TIMEOUT_MS, legitimateAddress(i)),
    (writes) =>
      runClosedLoop(
        async (i) => {
          const status = await (writeNext[i] ? writes : reads)[i]!.send();
          writeNext[i] = !writeNext[i];
          if (status === 503) rejected++;
          // A host that is down answers at once: a pause keeps the loop from spinning on the shared cores.
          if (status === 0) await new Promise((r) => setTimeout(r, 100));
          return status === 200;
        },
        { concurrency: LEGITIMATE_CLIENTS, durationMs: ms, warmupMs: 0 },
      ),
  ).finally(() => {
    for (const client of reads) client.close();
  });
  return { perSecond: result.throughput, rejected };
}

interface Row {
  name: string;
  summary: string;
  peakRssMiB: number;
  killedAt?: number;
  cached: ProbeStats;
  uncached: ProbeStats;
  cpuSeconds: number;
  /** The attacker process's CPU seconds over the row (it shares the machine's cores with the host). */
  attackerCpuSeconds: number;
  rejected: number;
  legitimatePerSecond: number;
  /** Host log lines at level error during the row (client-caused failures belong at warn or below). */
  errorLogs: number;
  notes: string;
}

/** An attack running in its own process (bench/overload/attacker.ts). */
interface AttackerProcess {
  readonly pid: number;
  /** Stops the attack; what the attacker saw. */
  stop(): Promise<{ rejected: number; notes: string }>;
  kill(): void;
}

async function startAttacker(attack: Attack, target: { url: string; port: number }): Promise<AttackerProcess> {
  const child = spawn(process.execPath, [join(import.meta.dirname, 'overload', 'attacker.ts'), attack.name, target.url, String(target.port), values['sse-clients']], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const nextLine = () =>
    new Promise<string>((resolve, reject) => {
      lines.once('line', resolve);
      child.once('exit', (code) => reject(new Error(`the attacker exited with ${code}`)));
    });
  if ((await nextLine()) !== 'started') throw new Error('the attacker did not start');
  return {
    pid: child.pid!,
    async stop() {
      const seen = nextLine();
      child.stdin.write('stop\n');
      return JSON.parse(await seen) as { rejected: number; notes: string };
    },
    kill: () => void child.kill('SIGKILL'),
  };
}

async function runRow(name: string, summary: string, attack: Attack | undefined): Promise<Row> {
  const host: HostProcess = await startHost({ root: values.root, args: ['--transport', 'both'], timeoutMs: 60_000 });
  const pid = host.child.pid!;
  const started = performance.now();
  const cpuBefore = processCpuMs(pid);
  let peak = residentBytes(pid);
  let killedAt: number | undefined;
  let cpuAtKill = 0;
  const sampler = setInterval(() => {
    const rss = residentBytes(pid);
    if (rss > peak) peak = rss;
    if (rss > RSS_CAP && killedAt === undefined) {
      killedAt = (performance.now() - started) / 1000;
      cpuAtKill = processCpuMs(pid);
      void host.kill();
    }
  }, PROBE_EVERY_MS);
  let attacker: AttackerProcess | undefined;
  try {
    attacker = attack ? await startAttacker(attack, { url: host.url, port: host.port }) : undefined;
    const attackerCpuBefore = attacker ? processCpuMs(attacker.pid) : 0;
    await new Promise((r) => setTimeout(r, attack ? SETTLE_MS : 0));
    const cached = startProbe(host.url, () => '/api/counter/view');
    const uncached = startProbe(host.url, (n) => `/api/counter/view?probe=${n}`);
    const legit = await legitimate(host.url, SECONDS * 1_000);
    const [cachedStats, uncachedStats] = await Promise.all([cached.stop(), uncached.stop()]);
    const cpuAfter = killedAt === undefined ? processCpuMs(pid) : cpuAtKill;
    const attackerCpuMs = attacker ? processCpuMs(attacker.pid) - attackerCpuBefore : 0;
    const seen = attacker ? await attacker.stop() : { rejected: 0, notes: '' };
    attacker = undefined;
    return {
      name,
      summary,
      peakRssMiB: peak / 1024 / 1024,
      killedAt,
      cached: cachedStats,
      uncached: uncachedStats,
      cpuSeconds: (cpuAfter - cpuBefore) / 1000,
      attackerCpuSeconds: attackerCpuMs / 1000,
      rejected: cachedStats.rejected + uncachedStats.rejected + legit.rejected + seen.rejected,
      legitimatePerSecond: legit.perSecond,
      errorLogs: host.logs().filter((line) => line['level'] === 'error').length,
      notes: seen.notes,
    };
  } finally {
    clearInterval(sampler);
    attacker?.kill();
    await host.kill();
  }
}

const okPercent = (s: ProbeStats) => (s.sent === 0 ? 0 : (s.latencies.length / s.sent) * 100);
const latency = (s: ProbeStats) => `${fmt(percentile(s.latencies, 50))} / ${fmt(percentile(s.latencies, 99))}`;
const mark = (met: boolean) => (met ? 'yes' : '**no**');

/** `baseline`: legitimate ops/s without an attacker (the mean of the first and last baseline rows). */
function table(rows: Row[], baseline: number): string {
  return markdownTable(
    [
      'attack',
      'peak RSS MiB',
      'cached ok %',
      'cached p50 / p99 ms',
      'uncached ok %',
      'uncached p50 / p99 ms',
      'host CPU-s',
      'attacker CPU-s',
      '503s',
      'error logs',
      'legitimate ops/s (% of baseline)',
      'goals: RSS / probes / legitimate',
      'what the attacker saw',
    ],
    rows.map((r) => {
      const share = (r.legitimatePerSecond / baseline) * 100;
      const probesMet = [r.cached, r.uncached].every((s) => okPercent(s) === 100 && percentile(s.latencies, 99) <= GOALS.probeMs);
      const rss = `${fmt(r.peakRssMiB)}${r.killedAt === undefined ? '' : ` (killed at the cap after ${r.killedAt.toFixed(1)} s)`}`;
      const goals = `${mark(r.killedAt === undefined && r.peakRssMiB <= GOALS.rssMiB)} / ${mark(probesMet)} / ${mark(share >= GOALS.legitimatePercent)}`;
      return [
        `${r.name}: ${r.summary}`,
        rss,
        fmt(okPercent(r.cached)),
        latency(r.cached),
        fmt(okPercent(r.uncached)),
        latency(r.uncached),
        fmt(r.cpuSeconds),
        fmt(r.attackerCpuSeconds),
        r.rejected,
        r.errorLogs,
        `${fmt(r.legitimatePerSecond)} (${fmt(share)}%)`,
        goals,
        r.notes,
      ];
    }),
    ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'l', 'l'],
  );
}

function commitOf(root: string): string {
  try {
    return execFileSync('git', ['-C', root, 'log', '-1', '--format=%h %s'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

const selected = ATTACKS.filter((a) => only === undefined || only.includes(a.name));
const startedAt = new Date();
const loadBefore = loadavg()[0]!;
const rows: Row[] = [];
rows.push(await runRow('baseline', 'no attacker (first)', undefined));
console.log(`baseline: ${fmt(rows[0]!.legitimatePerSecond)} legitimate ops/s`);
for (const attack of selected) {
  rows.push(await runRow(attack.name, attack.summary, attack));
  console.log(`${attack.name}: done`);
}
rows.push(await runRow('baseline', 'no attacker (last)', undefined));
const baseline = (rows[0]!.legitimatePerSecond + rows.at(-1)!.legitimatePerSecond) / 2;
console.log(`baseline: ${fmt(rows.at(-1)!.legitimatePerSecond)} legitimate ops/s (mean ${fmt(baseline)})`);
const minutes = (Date.now() - startedAt.getTime()) / 60_000;
const report = [
  `Run ${startedAt.toISOString()} for ${minutes.toFixed(1)} min on ${commitOf(values.root)} (host from ${values.root}); ${SECONDS} s measured per row after ${SETTLE_MS / 1000} s for the attack to take hold; ${LEGITIMATE_CLIENTS} legitimate clients, each from an address of its own (127.0.1.1 to 127.0.1.${LEGITIMATE_CLIENTS}), the attacker from 127.0.0.2; probes from ${PROBE_ADDRESS} every ${PROBE_EVERY_MS} ms (timeout ${PROBE_TIMEOUT_MS / 1000} s); host RSS cap ${values['rss-cap-mib']} MiB; load average ${loadBefore.toFixed(1)} before the run, ${loadavg()[0]!.toFixed(1)} after.`,
  '',
  `Goals: peak RSS ≤ ${GOALS.rssMiB} MiB (the default memory budget); every probe answered 200 within ${GOALS.probeMs} ms (p99); legitimate throughput ≥ ${GOALS.legitimatePercent}% of the baseline, which is the mean of a baseline row measured first and one measured last (${fmt(rows[0]!.legitimatePerSecond)} and ${fmt(rows.at(-1)!.legitimatePerSecond)}: ${fmt(baseline)} ops/s).`,
  '',
  table(rows, baseline),
  '',
].join('\n');
publish('`npm run bench -- overload`', report, values.out);
