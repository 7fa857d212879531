/**
 * `node bench/retirement.ts [--rounds 3 --slice-seconds 20 --clients 8]`: what the instance
 * retirement safety net (docs/memory.md) costs under the soak's mixed load (bench/soak-load.ts).
 * In-process hosts, one per setting, take turns: each round gives every host one slice of
 * load, so a busy neighbour on this shared machine weighs on all three alike. Prints exchanges per
 * second, errors, instances retired and the largest instance's linear memory per setting.
 */
import { parseArgs } from 'node:util';
import { loadavg } from 'node:os';
import { startHost, type RunningHost } from '../host/app.ts';
import { loadConfig } from '../host/config.ts';
import { jsonLogger } from '../host/log.ts';
import { tempDataDir } from '../test/support/host-process.ts';
import { type MixedLoad, mixedLoad } from './soak-load.ts';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    'slice-seconds': { type: 'string', default: '20' },
    clients: { type: 'string', default: '8' },
  },
});
const rounds = Number(values.rounds);
const sliceMs = Number(values['slice-seconds']) * 1000;
const clients = Number(values.clients);

// A load test, not a rate-limit test: every login is a real one (the default allows 100 a minute per client).
process.env['AUTH_CLIENT_MAX_ATTEMPTS_PER_MINUTE'] ??= '100000';

const settings: Array<[string, string[]]> = [
  ['off (0 / 0)', ['--instance-max-requests', '0', '--instance-max-memory', '0']],
  ['10,000 exchanges / 128 MiB (the defaults before 2026-11-24)', ['--instance-max-memory', '128']],
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
  const config = loadConfig(['--port', '0', '--transport', 'both', '--data-dir', tempDataDir(), ...flags], process.env);
  const host = await startHost(
    config,
    process.env,
    jsonLogger(() => undefined),
  );
  subjects.push({ name, host, load: await mixedLoad(`http://127.0.0.1:${host.port}`, { grpc: true, sockets: clients * 2 }), ms: 0 });
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

const date = new Date().toISOString().slice(0, 16).replace('T', ' ');
const meanLoad = loads.reduce((a, b) => a + b, 0) / loads.length;
console.log(`\n${date} UTC, ${rounds} rounds × ${sliceMs / 1000} s per setting, ${clients} clients, mixed load, load average ${meanLoad.toFixed(1)}\n`);
console.log('| safety net | exchanges/s | exchanges (errors) | instances retired | largest instance, linear MiB |');
console.log('|---|---:|---:|---:|---:|');
for (const { name, host, load, ms } of subjects) {
  const largest = Math.max(...host.pool.instanceStats().map((s) => s.memoryBytes)) / 1_048_576;
  const { exchanges, errors } = load.counters;
  console.log(`| ${name} | ${((exchanges * 1000) / ms).toFixed(1)} | ${exchanges} (${errors}) | ${host.pool.stats.retired} | ${largest.toFixed(0)} |`);
  for (const [family, { count, first }] of load.failures) console.log(`  errors in ${family}: ${count} (first: ${first})`);
}
for (const { host, load } of subjects) {
  load.close();
  await host.stop();
}
