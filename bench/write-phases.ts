/**
 * `npm run bench -- write-phases --base <checkout>`: one REST POST increment, phase by phase, on
 * this checkout's Node host and on another checkout's (the code before a change, built with
 * `node scripts/build.ts --variant profile`), alternating in one run so a machine shared with
 * other work weighs on both alike. Each host runs its own profiling build (bench/profile/host.ts:
 * SQLite, response cache off, 4 warm instances, metrics on). Per round and build:
 *
 * - c=1 and c=16: the guest's phases (src/platform/profile.ts marks: p50 per phase, medians over
 *   the rounds), the host's import work and calls per command (its import histogram), and the
 *   host's CPU per answered request (/proc/<pid>/stat): CPU, not throughput, since the machine is
 *   shared;
 * - c=16 once more with V8's CPU profiler on the host's main thread (bench/profile/cpu-hook.ts,
 *   started by a signal after the warm-up): the host's CPU per request by place (the guest's
 *   WebAssembly, the bindings, the host's HTTP and admission, its stores, Node's core, GC).
 *
 *   node bench/write-phases.ts --base <dir> [--rounds 3] [--duration-ms 4000] [--out docs/runs/<date>-….md]
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { freePort, startHost, tempDataDir, type HostProcess } from '../harness/host-process.ts';
import { COUNTER_INCREMENT, runLoad, warmupFor, type LoadResult } from './lib/load.ts';
import { CPU_PLACES, cpuByPlace, type CpuPlace } from './lib/cpu-profile.ts';
import { guestPhases } from './lib/guest-phases.ts';
import { importTotals } from './lib/import-totals.ts';
import { processCpuMs } from './lib/proc-cpu.ts';
import { ascending, mean, median, percentile } from './lib/stats.ts';
import { fmt, markdownTable, OUT_OPTION, publish } from './lib/table.ts';

const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    rounds: { type: 'string', default: '3' },
    'duration-ms': { type: 'string', default: '4000' },
    'base-name': { type: 'string', default: 'before' },
    'this-name': { type: 'string', default: 'after' },
    ...OUT_OPTION,
  },
});
if (values.base === undefined) {
  process.stderr.write('usage: node bench/write-phases.ts --base <checkout, built with --variant profile> [--rounds 3] [--duration-ms 4000] [--out <file.md>]\n');
  process.exit(2);
}
const durationMs = Number(values['duration-ms']);
const rounds = Math.max(1, Number(values.rounds));
const ROUTE = 'POST /api/counter/increment';
const CONCURRENCIES = [1, 16] as const;
const HOOK = join(import.meta.dirname, 'profile', 'cpu-hook.ts');
const profileDir = mkdtempSync(join(tmpdir(), 'write-phases-'));

interface Build {
  name: string;
  root: string;
  dataDir?: string;
  host?: HostProcess;
  metricsPort?: number;
}
const builds: Build[] = [
  { name: values['base-name'], root: resolve(values.base) },
  { name: values['this-name'], root: resolve(import.meta.dirname, '..') },
];
for (const build of builds) {
  if (!existsSync(join(build.root, 'build', 'hosted-profile', 'transpiled'))) {
    process.stderr.write(`error: ${build.root} has no profiling build: run node scripts/build.ts --variant profile there\n`);
    process.exit(2);
  }
}

interface Measured {
  result: LoadResult;
  cpuUs: number;
  /** Per phase: p50 and mean µs over the exchanges, and the share of exchanges that had it. */
  phases: Map<string, { p50: number; mean: number; present: number }>;
  /** Per host import: calls and µs per command. */
  imports: Map<string, { calls: number; us: number }>;
}
const measured = new Map<string, Measured[]>();
const places = new Map<string, Map<CpuPlace, number>[]>();
const key = (build: Build, concurrency: number) => `${build.name} c=${concurrency}`;

async function measure(build: Build, concurrency: number): Promise<void> {
  const host = build.host!;
  const spec = { concurrency, durationMs, warmupMs: 0 };
  await runLoad(host.url, COUNTER_INCREMENT, { ...spec, durationMs: warmupFor(durationMs) });
  await new Promise((r) => setTimeout(r, 300));
  const from = host.output.length;
  const before = await importTotals(build.metricsPort!);
  const cpuBefore = processCpuMs(host.child.pid!);
  const result = await runLoad(host.url, COUNTER_INCREMENT, spec);
  const cpuMs = processCpuMs(host.child.pid!) - cpuBefore;
  const after = await importTotals(build.metricsPort!);
  // The last batches' lines (each instance writes one per 50 exchanges).
  await new Promise((r) => setTimeout(r, 300));
  const commands = result.requests + result.errors;
  const raw = guestPhases(host.output, from, ROUTE);
  const exchanges = raw.get('total')?.length ?? 0;
  const phases = new Map(
    [...raw].map(([name, samples]) => [
      name,
      { p50: percentile(ascending(samples.filter((us) => us > 0)), 50), mean: mean(samples), present: samples.filter((us) => us > 0).length / exchanges },
    ]),
  );
  const imports = new Map(
    [...after].map(([name, a]) => [name, { calls: (a.calls - (before.get(name)?.calls ?? 0)) / commands, us: ((a.seconds - (before.get(name)?.seconds ?? 0)) * 1e6) / commands }]),
  );
  // Requests answered after the /metrics fetch count too; the fetches themselves are a handful.
  measured.set(key(build, concurrency), [...(measured.get(key(build, concurrency)) ?? []), { result, cpuUs: (cpuMs * 1000) / Math.max(1, result.requests), phases, imports }]);
}

async function profileCpu(build: Build): Promise<void> {
  const host = build.host!;
  const out = join(profileDir, `${build.name}.cpuprofile`);
  rmSync(out, { force: true });
  await runLoad(host.url, COUNTER_INCREMENT, { concurrency: 16, durationMs: warmupFor(durationMs), warmupMs: 0 });
  host.child.kill('SIGUSR2');
  const cpuBefore = processCpuMs(host.child.pid!);
  const result = await runLoad(host.url, COUNTER_INCREMENT, { concurrency: 16, durationMs, warmupMs: 0 });
  const cpuUs = ((processCpuMs(host.child.pid!) - cpuBefore) * 1000) / Math.max(1, result.requests);
  host.child.kill('SIGUSR2');
  const until = Date.now() + 30_000;
  while (!existsSync(out) && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
  await new Promise((r) => setTimeout(r, 500));
  // The sampler's deltas are wall time: each place's share of the samples, of the CPU /proc counted.
  const byPlace = cpuByPlace(out);
  const sampled = [...byPlace.values()].reduce((sum, us) => sum + us, 0);
  const perRequest = new Map([...byPlace].map(([place, us]) => [place, (us / Math.max(1, sampled)) * cpuUs]));
  places.set(build.name, [...(places.get(build.name) ?? []), perRequest]);
}

const loads: number[][] = [loadavg()];
try {
  for (const build of builds) {
    build.metricsPort = await freePort();
    build.dataDir = tempDataDir('write-phases-data-');
    build.host = await startHost({
      entry: 'bench/profile/host.ts',
      root: build.root,
      cwd: build.root,
      dataDir: build.dataDir,
      args: ['--response-cache', 'off', '--instances-min', '4', '--metrics-port', String(build.metricsPort)],
      env: { NODE_OPTIONS: `${process.env['NODE_OPTIONS'] ?? ''} --import ${HOOK}`.trim(), CPU_PROFILE_OUT: join(profileDir, `${build.name}.cpuprofile`) },
      timeoutMs: 300_000,
    });
  }
  for (let round = 0; round < rounds; round++) {
    // Alternate which build goes first.
    const order = round % 2 === 0 ? builds : [...builds].reverse();
    for (const build of order) {
      for (const concurrency of CONCURRENCIES) await measure(build, concurrency);
    }
    for (const build of order) await profileCpu(build);
    loads.push(loadavg());
  }
} finally {
  for (const build of builds) {
    await build.host?.stop();
    if (build.dataDir !== undefined) rmSync(build.dataDir, { recursive: true, force: true });
  }
  rmSync(profileDir, { recursive: true, force: true });
}

// ---- the tables
const [base, now] = builds as [Build, Build];
const medianOf = (list: Measured[] | undefined, pick: (m: Measured) => number | undefined) => {
  const picked = (list ?? []).map(pick).filter((v): v is number => v !== undefined && Number.isFinite(v));
  return picked.length === 0 ? Number.NaN : median(picked);
};
const change = (a: number, b: number) => (Number.isFinite(a) && Number.isFinite(b) && a > 0 ? `${b >= a ? '+' : ''}${fmt(((b - a) / a) * 100, 0)}%` : '');

const sections: string[] = [];
sections.push(
  `## Per request\n\n${markdownTable(
    ['build', 'c', 'req/s', 'p50 ms', 'host CPU µs/req', 'guest total p50 µs', 'guest total mean µs', 'host import µs/req'],
    builds.flatMap((build) =>
      CONCURRENCIES.map((c) => {
        const list = measured.get(key(build, c));
        const importUs = medianOf(list, (m) => [...m.imports].filter(([n]) => !isNested(n, m)).reduce((sum, [, v]) => sum + v.us, 0));
        return [
          build.name,
          c,
          fmt(medianOf(list, (m) => m.result.throughput)),
          fmt(medianOf(list, (m) => m.result.p50)),
          fmt(
            medianOf(list, (m) => m.cpuUs),
            0,
          ),
          fmt(
            medianOf(list, (m) => m.phases.get('total')?.p50),
            0,
          ),
          fmt(
            medianOf(list, (m) => m.phases.get('total')?.mean),
            0,
          ),
          fmt(importUs, 0),
        ];
      }),
    ),
    ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
  )}`,
);

/**
 * The host's histogram times a lease's methods wherever they are called: `append` inside
 * `appendAndEnd`, and (since acquire brings the tail) `readNewest` inside `acquire` when the guest
 * made no such call. Those are left out of sums.
 */
function isNested(name: string, m: Measured): boolean {
  if (name.endsWith('#Lease.append')) return m.imports.has(name.replace('#Lease.append', '#Lease.appendAndEnd'));
  return name.endsWith('#Lease.readNewest') && !m.phases.has('import: lease#readNewest');
}

const cpuAt = (build: Build, c: number, round: number) => measured.get(key(build, c))?.[round]?.cpuUs ?? Number.NaN;
/** Per round, this build's CPU per request over the base's, taken minutes apart at most: the steadier comparison on a shared machine. */
const ratios = CONCURRENCIES.map((c) => Array.from({ length: rounds }, (_, round) => cpuAt(now, c, round) / cpuAt(base, c, round)));
sections.push(
  `### Host CPU per request, round by round (µs; the spread of the machine) and ${now.name}/${base.name} in each round\n\n${markdownTable(
    ['round', ...builds.flatMap((build) => CONCURRENCIES.map((c) => `${build.name} c=${c}`)), ...CONCURRENCIES.map((c) => `${now.name}/${base.name} c=${c}`)],
    [
      ...Array.from({ length: rounds }, (_, round) => [
        round + 1,
        ...builds.flatMap((build) => CONCURRENCIES.map((c) => fmt(cpuAt(build, c, round), 0))),
        ...ratios.map((list) => fmt(list[round]!, 2)),
      ]),
      [
        '**median**',
        ...builds.flatMap((build) =>
          CONCURRENCIES.map((c) =>
            fmt(
              medianOf(measured.get(key(build, c)), (m) => m.cpuUs),
              0,
            ),
          ),
        ),
        ...ratios.map((list) => fmt(median(list.filter(Number.isFinite)), 2)),
      ],
    ],
    ['r', ...builds.flatMap(() => CONCURRENCIES.map(() => 'r' as const)), ...CONCURRENCIES.map(() => 'r' as const)],
  )}`,
);

for (const c of CONCURRENCIES) {
  const a = measured.get(key(base, c)),
    b = measured.get(key(now, c));
  const names = [...new Set([...(a ?? []), ...(b ?? [])].flatMap((m) => [...m.phases.keys()]))].filter((n) => n !== 'total');
  const p50 = (list: Measured[] | undefined, name: string) => medianOf(list, (m) => m.phases.get(name)?.p50);
  const present = (list: Measured[] | undefined, name: string) => medianOf(list, (m) => m.phases.get(name)?.present);
  names.sort((x, y) => Math.max(p50(b, y) || 0, p50(a, y) || 0) - Math.max(p50(b, x) || 0, p50(a, x) || 0));
  sections.push(
    `## The guest's phases, c=${c} (p50 µs over the exchanges that had the phase; per exchange: how many had it)\n\n${markdownTable(
      ['phase', `${base.name} p50 µs`, `${base.name} per exchange`, `${now.name} p50 µs`, `${now.name} per exchange`, 'change'],
      [
        ...names.map((n) => [n, fmt(p50(a, n), 0), fmt(present(a, n), 2), fmt(p50(b, n), 0), fmt(present(b, n), 2), change(p50(a, n), p50(b, n))]),
        ['**guest total**', fmt(p50(a, 'total'), 0), '1', fmt(p50(b, 'total'), 0), '1', change(p50(a, 'total'), p50(b, 'total'))],
      ],
      ['l', 'r', 'r', 'r', 'r', 'r'],
    )}`,
  );
  const imports = [...new Set([...(a ?? []), ...(b ?? [])].flatMap((m) => [...m.imports].filter(([, v]) => v.calls > 0).map(([n]) => n)))].sort();
  const calls = (list: Measured[] | undefined, name: string) => medianOf(list, (m) => m.imports.get(name)?.calls ?? 0);
  const us = (list: Measured[] | undefined, name: string) => medianOf(list, (m) => m.imports.get(name)?.us ?? 0);
  sections.push(
    `### The host's side of the imports, c=${c} (its import histogram, per command)\n\n${markdownTable(
      ['import', `${base.name} calls`, `${base.name} host µs`, `${now.name} calls`, `${now.name} host µs`],
      imports.map((n) => [
        [...(a ?? []), ...(b ?? [])].some((m) => m.imports.has(n) && isNested(n, m)) ? `${n} (in part inside another call: not summed there)` : n,
        fmt(calls(a, n), 2),
        fmt(us(a, n), 0),
        fmt(calls(b, n), 2),
        fmt(us(b, n), 0),
      ]),
      ['l', 'r', 'r', 'r', 'r'],
    )}`,
  );
}

const placeRows = CPU_PLACES.map((place) => {
  const a = median((places.get(base.name) ?? []).map((m) => m.get(place) ?? 0));
  const b = median((places.get(now.name) ?? []).map((m) => m.get(place) ?? 0));
  return [place, fmt(a, 0), fmt(b, 0), change(a, b)];
});
const totalOf = (name: string) => median((places.get(name) ?? []).map((m) => [...m.values()].reduce((s, v) => s + v, 0)));
sections.push(
  `## The host's CPU per request by place (c=16: each place's share of the V8 CPU profile's samples of the main thread, of the process's CPU per request from /proc in that row; medians over the rounds)\n\n${markdownTable(
    ['place', `${base.name} µs/req`, `${now.name} µs/req`, 'change'],
    [...placeRows, ['**total (the process, /proc)**', fmt(totalOf(base.name), 0), fmt(totalOf(now.name), 0), change(totalOf(base.name), totalOf(now.name))]],
    ['l', 'r', 'r', 'r'],
  )}`,
);

const report = `${rounds} round(s) alternating between ${base.name} (${base.root}) and ${now.name} (${now.root}), ${durationMs / 1000} s measured per row after a warm-up of its own; REST ${ROUTE}, Node host (SQLite, response cache off, 4 warm instances at least) running each checkout's profiling build. Machine: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}); load average (1, 5, 15 min) at the start and after each round: ${loads.map((l) => l.map((v) => v.toFixed(1)).join(' ')).join(' → ')}. CPU from /proc/<pid>/stat of the host process per answered request (the guest runs in it).\n\n${sections.join('\n\n')}\n`;
publish('A write, phase by phase: two builds alternating (npm run bench -- write-phases)', report, values.out);
