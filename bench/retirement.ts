/**
 * `npm run bench -- retirement [--rounds 3 --slice-seconds 20 --clients 8 --out <file.md>]`: what the instance
 * retirement safety net (docs/memory.md) costs under the soak's mixed load (bench/lib/mixed-load.ts).
 * In-process hosts, one per setting, take turns: each round gives every host one slice of
 * load, so a busy neighbour on this shared machine weighs on all three alike. Prints exchanges per
 * second, errors, instances retired and the largest instance's linear memory per setting.
 */
import { parseArgs } from 'node:util';
import { loadavg } from 'node:os';
import type { RunningHost } from '../host/app.ts';
import { startInProcessHost } from './lib/in-process-host.ts';
import { type MixedLoad, mixedLoad } from './lib/mixed-load.ts';
import { mean } from './lib/stats.ts';
import { markdownTable, OUT_OPTION, publish } from './lib/table.ts';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    'slice-seconds': { type: 'string', default: '20' },
    clients: { type: 'string', default: '8' },
    ...OUT_OPTION,
  },
});
const rounds = Number(values.rounds);
const sliceMs = Number(values['slice-seconds']) * 1000;
const clients = Number(values.clients);

// A load test, not a rate-limit test: every login is a real one (the default allows 100 a minute per client).
process.env['AUTH_CLIENT_MAX_ATTEMPTS_PER_MINUTE'] ??= '100000';

const settings: Array<[string, string[]]> = [
  ['off (0 / 0)', ['--instance-max-requests', '0', '--instance-max-memory', '0']],
  ['10,000 exchanges / 128 MiB (the earlier defaults)', ['--instance-max-memory', '128']],
  ['defaults (10,000 exchanges / 64 MiB)', []],
  ['every 100 exchanges (100 / 0)', ['--instance-max-requests', '100', '--instance-max-memory', '0']],
];

interface Subject {
  name: string;
  host: RunningHost;
  load: MixedLoad;
  ms: number;
}
const subjects: Subject[] = [];
for (const [name, flags] of settings) {
  const host = await startInProcessHost(['--transport', 'both', ...flags]);
  subjects.push({ name, host, load: await mixedLoad(`http://127.0.0.1:${host.port}`, { grpc: true }), ms: 0 });
}

const loads: number[] = [];
for (let round = 0; round < rounds; round++) {
  for (const subject of subjects) {
    const started = performance.now();
    await subject.load.run(clients, () => performance.now() - started >= sliceMs);
    subject.ms += performance.now() - started;
    loads.push(loadavg()[0]!);
  }
}

const rows = subjects.map(({ name, host, load, ms }) => {
  const largest = Math.max(...host.pool.instanceStats().map((s) => s.memoryBytes)) / 1_048_576;
  const { exchanges, errors } = load.counters;
  return [name, ((exchanges * 1000) / ms).toFixed(1), `${exchanges} (${errors})`, host.pool.stats.retired, largest.toFixed(0)];
});
const failures = subjects.flatMap(({ name, load }) => [...load.failures].map(([family, { count, first }]) => `- ${name}, errors in ${family}: ${count} (first: ${first})`));
publish(
  'Instance retirement (npm run bench -- retirement)',
  [
    `${rounds} rounds × ${sliceMs / 1000} s per setting, ${clients} clients, mixed load, load average ${mean(loads).toFixed(1)}.`,
    '',
    markdownTable(['safety net', 'exchanges/s', 'exchanges (errors)', 'instances retired', 'largest instance, linear MiB'], rows, ['l', 'r', 'r', 'r', 'r']),
    ...(failures.length > 0 ? ['', ...failures] : []),
    '',
  ].join('\n'),
  values.out,
);
for (const { host, load } of subjects) {
  load.close();
  await host.stop();
}
