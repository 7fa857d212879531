/**
 * `npm run bench -- scale-soak [--db postgres|redis --hosts 3 --clients 24 --minutes 6]`: the
 * write path of several hosts on one store held under load for minutes (stream leases, hand-overs,
 * group commit: docs/scaling.md). Clients send `{"amount":1}` increments back to back, spread over
 * real host processes; every `--sample-seconds` it prints each host's RSS (from /proc) and the
 * throughput since the last sample; at the end the RSS band after `--warmup-seconds` and the
 * trend (mean RSS of the last third of the samples after warm-up against the first third, as
 * `npm run bench -- soak` reports it), the answers other than 200, and whether the stream is contiguous.
 */
import { parseArgs } from 'node:util';
import { startHost } from '../harness/host-process.ts';
import { isolation, POSTGRES_URL, REDIS_URL, sharedServers } from '../harness/servers.ts';
import { counterStream } from '../harness/write-load.ts';
import { Http1Client } from './lib/http1-client.ts';
import { COUNTER_INCREMENT, runClosedLoop, withClients } from './lib/load.ts';
import { residentMiB } from './lib/proc-memory.ts';
import { thirdsTrendPercent } from './lib/stats.ts';
import { markdownTable, OUT_OPTION, publish } from './lib/table.ts';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'postgres' },
    hosts: { type: 'string', default: '3' },
    clients: { type: 'string', default: '24' },
    minutes: { type: 'string', default: '6' },
    'sample-seconds': { type: 'string', default: '10' },
    'warmup-seconds': { type: 'string', default: '60' },
    ...OUT_OPTION,
  },
});
const db = values.db;
if (db !== 'postgres' && db !== 'redis') throw new Error('--db is postgres or redis');
const missing = await sharedServers();
if (missing !== undefined) throw new Error(`bench scale-soak needs PostgreSQL and Redis: ${missing}`);

const servers = isolation('scalesoak');
const schema = servers.schema();
const prefix = servers.prefix();
const args =
  db === 'postgres' ? ['--db', 'postgres', '--postgres-url', POSTGRES_URL, '--postgres-schema', schema] : ['--db', 'redis', '--redis-url', REDIS_URL, '--redis-prefix', prefix];
const hosts = await Promise.all(Array.from({ length: Number(values.hosts) }, () => startHost({ args, timeoutMs: 60_000 })));

interface Sample {
  t: number;
  rss: number[];
  rps: number;
}
const samples: Sample[] = [];
let ok = 0;
let other = 0;
let counted = 0;
const sampleMs = Number(values['sample-seconds']) * 1000;
const started = performance.now();
const end = started + Number(values.minutes) * 60_000;
console.log(`bench scale-soak ${new Date().toISOString()}: ${hosts.length} hosts on ${db}, ${values.clients} clients, ${values.minutes} min`);
const timer = setInterval(() => {
  const sample = { t: Math.round((performance.now() - started) / 1000), rss: hosts.map((h) => residentMiB(h.child.pid ?? 0)), rps: (ok - counted) / (sampleMs / 1000) };
  counted = ok;
  samples.push(sample);
  console.log(`${String(sample.t).padStart(5)} s  RSS ${sample.rss.map((r) => r.toFixed(0)).join(' / ')} MiB  ${sample.rps.toFixed(0)} req/s  non-200 ${other}`);
}, sampleMs);

const clients = Number(values.clients);
await withClients(
  clients,
  (i) => new Http1Client(hosts[i % hosts.length]!.url, COUNTER_INCREMENT),
  (each) =>
    runClosedLoop(
      async (i) => {
        const answered = (await each[i]!.send()) === 200;
        if (answered) ok++;
        else other++;
        return answered;
      },
      { concurrency: clients, durationMs: end - performance.now(), warmupMs: 0 },
    ),
);
clearInterval(timer);
await Promise.all(hosts.map((h) => h.stop()));

// Only counter events in this store: revisions and global sequences are both 1..n.
const stream = await counterStream(db === 'postgres' ? { pg: servers.pg(), schema } : { redis: servers.redis(), prefix });
const contiguous = stream.every((e, i) => e.revision === i + 1 && e.sequence === i + 1);
await servers.cleanup();

const warm = samples.filter((s) => s.t >= Number(values['warmup-seconds']));
// Each sample's mean over the hosts.
const trend = thirdsTrendPercent(warm.map((s) => s.rss.reduce((a, b) => a + b, 0) / s.rss.length));
const all = warm.flatMap((s) => s.rss);
const rates = warm.map((s) => s.rps);
publish(
  'Several hosts under sustained load (npm run bench -- scale-soak)',
  `${markdownTable(
    ['date (UTC)', 'setup', 'increments answered 200', 'other answers', 'stream contiguous', 'req/s per sample after warm-up', 'RSS per host after warm-up', 'trend'],
    [
      [
        new Date().toISOString().slice(0, 16).replace('T', ' '),
        `${hosts.length} hosts, ${db}, ${values.clients} clients, ${values.minutes} min`,
        ok,
        other,
        contiguous && stream.length === ok ? `yes, ${stream.length} events` : `NO (${stream.length} events)`,
        `${Math.min(...rates).toFixed(0)}–${Math.max(...rates).toFixed(0)}`,
        `${Math.min(...all).toFixed(0)}–${Math.max(...all).toFixed(0)} MiB`,
        `${trend >= 0 ? '+' : ''}${trend.toFixed(1)}%`,
      ],
    ],
    ['l', 'l', 'r', 'r', 'l', 'l', 'l', 'r'],
  )}\n`,
  values.out,
);
