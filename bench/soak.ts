/**
 * `npm run bench -- soak [--target node|workers|wasmtime --minutes 10 --clients 8 --db sqlite|postgres|redis]`:
 * mixed load over every route family (bench/lib/mixed-load.ts) for `--minutes`, sampling memory every
 * `--sample-seconds`; then the load stops and one more sample is taken after `--idle-seconds`.
 * Prints the samples and a summary (RSS at start, after `--warmup-seconds`, at the end of the load
 * and after it stopped; growth after warm-up) as Markdown tables (`--out <file.md>`: also keeps
 * them, see docs/runs/) and writes an SVG plot to docs/.
 *
 * Targets:
 * - `node`: the host in-process (one worker, `--transport both`), so the pool's own counters give
 *   the guests' linear memory (summed over its instances) next to RSS, V8 heap and external memory;
 * - `workers`: `node host/main.ts --workers 2` as a child process; its RSS (every thread) from /proc;
 * - `wasmtime`: `wasmtime serve` with instances reused for up to `--wasmtime-reuse` requests (128,
 *   the launcher's default; 1: a fresh one per request), RSS from /proc; no gRPC there, so the
 *   two gRPC families are left out.
 * `--extra="<host flags>"` adds host options (node and workers), e.g. the safety net's (with `=`: the value starts with a dash).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadavg } from 'node:os';
import { startHost as startHostProcess } from '../harness/host-process.ts';
import { POSTGRES_URL, REDIS_URL } from '../harness/servers.ts';
import { startWasmtime } from '../harness/wasmtime-process.ts';
import { startInProcessHost } from './lib/in-process-host.ts';
import { mixedLoad } from './lib/mixed-load.ts';
import { residentBytes } from './lib/proc-memory.ts';
import { mean, thirdsTrendPercent } from './lib/stats.ts';
import { markdownTable, OUT_OPTION, publish } from './lib/table.ts';

const { values } = parseArgs({
  options: {
    target: { type: 'string', default: 'node' },
    minutes: { type: 'string', default: '10' },
    clients: { type: 'string', default: '8' },
    db: { type: 'string', default: 'sqlite' },
    'sample-seconds': { type: 'string', default: '10' },
    'warmup-seconds': { type: 'string', default: '60' },
    'idle-seconds': { type: 'string', default: '20' },
    'wasmtime-reuse': { type: 'string', default: '128' },
    extra: { type: 'string', default: '' },
    ...OUT_OPTION,
  },
});
const target = values.target;
if (target !== 'node' && target !== 'workers' && target !== 'wasmtime') throw new Error(`--target: node, workers or wasmtime, not ${target}`);
const minutes = Number(values.minutes);
const clients = Number(values.clients);
const sampleMs = Number(values['sample-seconds']) * 1000;
const warmupS = Number(values['warmup-seconds']);
const extra = values.extra.split(' ').filter(Boolean);
// The test servers (harness/servers.ts: POSTGRES_URL, REDIS_URL or the local ones): the host has no default server.
const serverArgs =
  values.db === 'postgres'
    ? ['--postgres-url', POSTGRES_URL, '--postgres-schema', 'soak_bench']
    : values.db === 'redis'
      ? ['--redis-url', REDIS_URL, '--redis-prefix', 'soak-bench:']
      : [];
const hostArgs = ['--transport', 'both', '--db', values.db, ...serverArgs, ...extra];

// A load test, not a rate-limit test: every login is a real one (the default allows 100 a minute per client).
const guestEnv = { AUTH_CLIENT_MAX_ATTEMPTS_PER_MINUTE: '100000' };
process.env['AUTH_CLIENT_MAX_ATTEMPTS_PER_MINUTE'] ??= guestEnv.AUTH_CLIENT_MAX_ATTEMPTS_PER_MINUTE;

const mib = (n: number) => n / 1_048_576;

interface Target {
  base: string;
  grpc: boolean;
  /** RSS always; V8 heap, external and guest linear memory (with the instance count) when readable. */
  memory(): { rss: number; heap?: number; external?: number; linear?: number; instances?: number };
  /** Instances retired by the safety net, when readable. */
  retired(): number | undefined;
  stop(): Promise<unknown>;
}

async function start(): Promise<Target> {
  if (target === 'node') {
    const host = await startInProcessHost(hostArgs);
    return {
      base: `http://127.0.0.1:${host.port}`,
      grpc: true,
      memory() {
        const m = process.memoryUsage();
        const stats = host.pool.instanceStats();
        return { rss: m.rss, heap: m.heapUsed, external: m.external, linear: stats.reduce((n, s) => n + s.memoryBytes, 0), instances: stats.length };
      },
      retired: () => host.pool.stats.retired,
      stop: () => host.stop(),
    };
  }
  if (target === 'workers') {
    const host = await startHostProcess({ args: ['--workers', '2', ...hostArgs], timeoutMs: 60_000 });
    const pid = host.child.pid!;
    return {
      base: host.url,
      grpc: true,
      memory: () => ({ rss: residentBytes(pid) }),
      retired: () => host.logs().filter((l) => l['code'] === 'guest_instance_retired').length,
      stop: () => host.stop(),
    };
  }
  const wasmtime = await startWasmtime({ instanceReuse: Number(values['wasmtime-reuse']), guestEnv });
  const pid = wasmtime.child.pid!;
  return { base: wasmtime.url, grpc: false, memory: () => ({ rss: residentBytes(pid) }), retired: () => undefined, stop: () => wasmtime.stop() };
}

const server = await start();
const load = await mixedLoad(server.base, { grpc: server.grpc });

interface Sample {
  t: number;
  rss: number;
  heap?: number;
  external?: number;
  linear?: number;
  instances?: number;
  exchanges: number;
  errors: number;
  load1: number;
}
const samples: Sample[] = [];
const num = (n: number | undefined, width: number) => (n === undefined ? '–' : mib(n).toFixed(0)).padStart(width);
function sample(t: number): Sample {
  const s: Sample = { t, ...server.memory(), ...load.counters, load1: loadavg()[0]! };
  samples.push(s);
  console.log(
    `${String(Math.round(t)).padStart(5)} s  rss ${num(s.rss, 5)}  heap ${num(s.heap, 4)}  ext ${num(s.external, 4)}  linear ${num(s.linear, 5)} MiB${s.instances === undefined ? '' : ` (${s.instances} inst)`}  ${s.exchanges} exchanges, ${s.errors} errors, load ${s.load1.toFixed(1)}`,
  );
  return s;
}

const date = new Date().toISOString().slice(0, 16).replace('T', ' ');
console.log(`soak: ${target}, ${values.db}, ${clients} clients, ${minutes} min; families: ${load.families.join(', ')}`);
const started = performance.now();
const elapsed = () => (performance.now() - started) / 1000;
const end = started + minutes * 60_000;
sample(0);
const timer = setInterval(() => sample(elapsed()), sampleMs);
await load.run(clients, () => performance.now() >= end);
clearInterval(timer);
const last = sample(elapsed());
load.close();
await new Promise((resolve) => setTimeout(resolve, Number(values['idle-seconds']) * 1000));
// An idle process runs no GC, so instances retired while idle keep their memory until the next
// one; under `node --expose-gc` (in-process target) the sample after the load shows what a GC frees.
const gc = (globalThis as { gc?: () => void }).gc;
for (let i = 0; gc && i < 3; i++) {
  gc();
  await new Promise((resolve) => setTimeout(resolve, 1000)); // array buffers are freed after the sweep
}
const idle = sample(elapsed());
const retired = server.retired();
await server.stop();

const first = samples[0]!;
const warm = samples.find((s) => s.t >= warmupS) ?? first;
const growth = ((last.rss - warm.rss) / warm.rss) * 100;
// The trend: the mean RSS of the last third of the samples taken under load after the warm-up
// against that of the first third.
const loaded = samples.slice(samples.indexOf(warm), samples.indexOf(last) + 1);
const trend = thirdsTrendPercent(loaded.map((s) => s.rss));
const loadAvg = mean(samples.slice(1, -1).map((s) => s.load1));
const title = `${target === 'workers' ? 'Node host, --workers 2' : target === 'node' ? 'Node host, 1 worker' : 'wasmtime serve'}${values.db === 'sqlite' || target === 'wasmtime' ? '' : `, ${values.db}`}`;
const sampleTable = markdownTable(
  ['t (s)', 'RSS MiB', 'V8 heap MiB', 'external MiB', 'guest linear MiB (instances)', 'exchanges', 'errors', 'load (1 min)'],
  samples.map((s) => [
    Math.round(s.t),
    num(s.rss, 0),
    num(s.heap, 0),
    num(s.external, 0),
    `${num(s.linear, 0)}${s.instances === undefined ? '' : ` (${s.instances})`}`,
    s.exchanges,
    s.errors,
    s.load1.toFixed(1),
  ]),
  ['r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
);
const summary = markdownTable(
  [
    'date (UTC)',
    'duration',
    'clients',
    'load average',
    'exchanges (errors)',
    'retired',
    'RSS start',
    'warm (t)',
    'end',
    'after stop (+idle)',
    'growth after warm-up',
    'trend (mean of last vs first third after warm-up)',
  ],
  [
    [
      date,
      `${minutes} min`,
      clients,
      Number.isFinite(loadAvg) ? loadAvg.toFixed(1) : 'n/a',
      `${last.exchanges} (${last.errors})`,
      retired ?? '–',
      num(first.rss, 0),
      `${num(warm.rss, 0)} (${Math.round(warm.t)} s)`,
      num(last.rss, 0),
      `${num(idle.rss, 0)} (${values['idle-seconds']} s)`,
      `${growth.toFixed(1)}% ${growth < 10 ? '< 10%' : '≥ 10%'}`,
      `${trend >= 0 ? '+' : ''}${trend.toFixed(1)}%`,
    ],
  ],
  ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'l', 'r'],
);
const failures = [...load.failures].map(([family, { count, first }]) => `- errors in ${family}: ${count} (first: ${first})`);
publish(`Soak: ${title}, ${date} UTC`, [sampleTable, '', summary, ...(failures.length > 0 ? ['', ...failures] : []), ''].join('\n'), values.out);

const name = target === 'node' ? `soak-${values.db}` : target === 'workers' ? `soak-workers2-${values.db}` : 'soak-wasmtime';
writeFileSync(
  join(import.meta.dirname, '..', 'docs', `${name}.svg`),
  plot(samples, `soak, ${target}, ${target === 'wasmtime' ? 'file store' : values.db}, ${clients} clients, ${minutes} min, ${date} UTC`),
);
console.log(`\nplot: docs/${name}.svg`);

/** A hand-written SVG line chart of the four memory series (MiB) over time (s). */
function plot(points: Sample[], title: string): string {
  const W = 720,
    H = 360,
    L = 60,
    R = 150,
    T = 30,
    B = 40;
  const tMax = Math.max(1, ...points.map((p) => p.t));
  const series: Array<[keyof Sample, string, string]> = [
    ['rss', 'RSS', '#d62728'],
    ['heap', 'V8 heap', '#1f77b4'],
    ['external', 'external', '#2ca02c'],
    ['linear', 'guest linear memory', '#9467bd'],
  ];
  const shown = series.filter(([k]) => points.some((p) => p[k] !== undefined));
  const yMax = mib(Math.max(1, ...points.flatMap((p) => shown.map(([k]) => (p[k] as number | undefined) ?? 0)))) * 1.1;
  const x = (t: number) => L + ((W - L - R) * t) / tMax;
  const y = (v: number) => H - B - ((H - T - B) * v) / yMax;
  const lines = shown.map(([k, label, color], i) => {
    const d = points.map((p, j) => `${j === 0 ? 'M' : 'L'}${x(p.t).toFixed(1)},${y(mib(p[k] as number)).toFixed(1)}`).join(' ');
    return `<path d="${d}" fill="none" stroke="${color}" stroke-width="2"/><text x="${W - R + 10}" y="${T + 20 + i * 20}" fill="${color}" font-size="12">${label}</text>`;
  });
  const ticks = [0, 0.25, 0.5, 0.75, 1].map(
    (f) =>
      `<text x="${L - 8}" y="${y(yMax * f) + 4}" text-anchor="end" font-size="11">${(yMax * f).toFixed(0)}</text><line x1="${L}" x2="${W - R}" y1="${y(yMax * f)}" y2="${y(yMax * f)}" stroke="#ddd"/>`,
  );
  const xt = [0, 0.5, 1].map((f) => `<text x="${x(tMax * f)}" y="${H - B + 16}" text-anchor="middle" font-size="11">${(tMax * f).toFixed(0)} s</text>`);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif"><rect width="100%" height="100%" fill="white"/><text x="${L}" y="18" font-size="13">${title} (MiB)</text>${ticks.join('')}${xt.join('')}${lines.join('')}</svg>\n`;
}
