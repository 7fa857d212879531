/**
 * `npm run bench -- dev-loop [--runs 5] [--out docs/runs/<date>-dev-loop.md]`: how long `npm run
 * dev` takes from a save to the answer that shows it, in a copy of the project
 * (harness/dev-process.ts), after the dev runner's start-up warm-up:
 *   handler  the health handler in src/ (static assets, bundle, componentize, transpile, restart)
 *   static   static/styles.css (its asset embedded: the same steps), seen in the page's stylesheet link
 *   host     a comment in host/log.ts (a restart only), seen in the dev runner's "serving" line
 * Each time runs from the write to the first answer showing the change (asked every 20 ms once the
 * dev runner says the new host serves: no answer can change earlier, and a poll runs the guest).
 * Beside it: the dev runner's own account (build, restart), the CPU the dev loop's processes used
 * in that time (what it costs a machine with nothing else to do), and the machine's load.
 */
import { appendFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { copyProject, editHealthHandler, type HealthHandler, healthEdit, healthHandler, processesUnder, startDev, type DevProcess } from '../harness/dev-process.ts';
import { processCpuTimes } from './lib/proc-cpu.ts';
import { median } from './lib/stats.ts';
import { fmt, markdownTable, OUT_OPTION, publish } from './lib/table.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' }, ...OUT_OPTION } });
const runs = Number(values.runs);
const POLL_MS = 20;
const TIMEOUT_MS = 300_000;

type Change = 'handler' | 'static' | 'host';
interface Run {
  change: Change;
  seconds: number;
  build: number;
  restart: number;
  cpu: number;
  load: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, probe: () => Promise<boolean>): Promise<void> {
  const deadline = performance.now() + TIMEOUT_MS;
  while (!(await probe())) {
    if (performance.now() > deadline) throw new Error(`${what}: not within ${TIMEOUT_MS / 1000} s`);
    await sleep(POLL_MS);
  }
}

/** CPU times so far of each process of the copy (npm, the dev runner, its build process, the host). */
const cpuSample = (root: string) => new Map(processesUnder(root).map((pid) => [pid, processCpuTimes(pid)]));

/**
 * CPU milliseconds the copy's processes used since `before`: what each live one used itself, what
 * their ended children used (wizer, a stopped host: counted in their parent's children times),
 * less what the ended ones had used before (it is in those children times too).
 */
function cpuSince(root: string, before: ReturnType<typeof cpuSample>): number {
  const after = cpuSample(root);
  let ms = 0;
  for (const [pid, now] of after) {
    const then = before.get(pid) ?? { own: 0, children: 0 };
    ms += now.own - then.own + (now.children - then.children);
  }
  for (const [pid, then] of before) if (!after.has(pid)) ms -= then.own;
  return ms;
}

const stylesheet = async (url: string) => /href="(\/pkg\/styles\.[0-9a-f]+\.css)"/.exec(await (await fetch(`${url}/`)).text())?.[1];

async function measure(dev: DevProcess, change: Change, index: number, handler: HealthHandler, answer: string): Promise<Run> {
  const { root, url } = dev;
  const from = dev.output.length;
  const before = cpuSample(root);
  const cssBefore = change === 'static' ? await stylesheet(url) : undefined;
  const started = performance.now();
  if (change === 'handler') editHealthHandler(root, handler, `run-${index}`);
  if (change === 'static') appendFileSync(join(root, 'static', 'styles.css'), `\n.dev-loop-probe-${index} { color: #${(index + 1).toString(16).padStart(6, '0')}; }\n`);
  if (change === 'host') appendFileSync(join(root, 'host', 'log.ts'), `\n// dev-loop benchmark, run ${index}\n`);
  // No answer can change before the new host serves: asking only then keeps the polls' own load
  // off the build (each poll runs the guest).
  const served = await dev.waitForLine(/^dev: serving [\d.]+ s after the save/, from, TIMEOUT_MS);
  if (change === 'handler') await until('the new answer', async () => (await healthEdit(url)) === `run-${index}`);
  if (change === 'static') await until('the new stylesheet', async () => ((await stylesheet(url).catch(() => cssBefore)) ?? cssBefore) !== cssBefore);
  // The restarted host answers as the one before it did.
  if (change === 'host') await until('an answer after the restart', async () => (await healthEdit(url)) === answer);
  const seconds = (performance.now() - started) / 1000;
  const [, build = 'NaN', restart = 'NaN'] = /\(build ([\d.]+) s, restart ([\d.]+) s\)/.exec(served.line) ?? [];
  return { change, seconds, build: Number(build), restart: Number(restart), cpu: cpuSince(root, before) / 1000, load: loadavg()[0]! };
}

const root = copyProject();
const results: Run[] = [];
let warmUp = 'n/a';
let dev: DevProcess | undefined;
try {
  dev = await startDev(root);
  const warm = await dev.waitForLine(/^dev: the build tools are warm/, 0, TIMEOUT_MS);
  warmUp = /\((.*)\)$/.exec(warm.line)?.[1] ?? warmUp;
  const handler = healthHandler(root);
  const plan: Change[] = [...Array.from({ length: runs }, () => 'handler' as const), 'static', 'static', 'host', 'host'];
  for (const [index, change] of plan.entries()) {
    const run = await measure(dev, change, index, handler, `run-${runs - 1}`);
    console.log(
      `${change} run ${index}: ${fmt(run.seconds, 1)} s (build ${fmt(run.build, 1)} s, restart ${fmt(run.restart, 1)} s, CPU ${fmt(run.cpu, 1)} s, load ${fmt(run.load, 1)})`,
    );
    results.push(run);
    await sleep(2_000); // the dev runner loads its next host process meanwhile, as between two saves
  }
} finally {
  await dev?.stop();
  rmSync(root, { recursive: true, force: true });
}

const rows = results.map((r) => [r.change, fmt(r.seconds, 1), fmt(r.build, 1), fmt(r.restart, 1), fmt(r.cpu, 1), fmt(r.load, 1)]);
const summary = (['handler', 'static', 'host'] as const).map((change) => {
  const times = results.filter((r) => r.change === change);
  return [change, String(times.length), fmt(median(times.map((r) => r.seconds)), 1), fmt(Math.max(...times.map((r) => r.seconds)), 1), fmt(median(times.map((r) => r.cpu)), 1)];
});
publish(
  'The dev loop (npm run bench -- dev-loop)',
  [
    `A copy of the project, \`npm run dev\` on SQLite; the build process warmed up at start (${warmUp}). Load average (1 min) at the end: ${loadavg()
      .map((l) => fmt(l, 1))
      .join(', ')}.`,
    '',
    markdownTable(['change', 'runs', 'save → answer, median (s)', 'max (s)', 'CPU of the dev loop, median (s)'], summary, ['l', 'r', 'r', 'r', 'r']),
    '',
    markdownTable(['change', 'save → answer (s)', 'build (s)', 'restart (s)', 'CPU (s)', 'load (1 min)'], rows, ['l', 'r', 'r', 'r', 'r', 'r']),
  ].join('\n'),
  values.out,
);
