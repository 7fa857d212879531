/**
 * What serving gRPC beside HTTP (`--transport both`) costs the HTTP path: two Node hosts on
 * SQLite, `--transport http` and `--transport both`, measured in alternating rounds of the same
 * run (GET /api/counter/view and POST /api/counter/increment, closed loop, the lean HTTP/1.1
 * client), so drifts of the shared machine hit both alike.
 *
 *   npm run bench:transport -- [--rounds 3] [--duration-ms 5000] [--concurrency 8]
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { freePort, tempDataDir } from '../test/support/host-process.ts';
import { Http1Client, type Http1Request } from './http1-client.ts';
import { fmt, runClosedLoop, type LoadResult } from './load.ts';

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '3' }, 'duration-ms': { type: 'string', default: '5000' }, concurrency: { type: 'string', default: '8' } },
});
const rounds = Number(values.rounds);
const durationMs = Number(values['duration-ms']);
const concurrency = Number(values.concurrency);
const root = join(import.meta.dirname, '..');

async function startHost(transport: string) {
  const port = await freePort();
  const child = spawn(process.execPath, [join(root, 'host', 'main.ts'), '--port', String(port), '--data-dir', tempDataDir('bench-'), '--transport', transport], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (c: Buffer) => c.toString().includes('host_listening') && resolve());
    child.once('exit', (code) => reject(new Error(`the host exited with ${code}`)));
  });
  child.stdout.resume();
  return { transport, url: `http://127.0.0.1:${port}`, stop: () => child.kill('SIGKILL') };
}

const routes: Array<[string, Http1Request]> = [
  ['GET /api/counter/view', { method: 'GET', path: '/api/counter/view' }],
  ['POST /api/counter/increment', { method: 'POST', path: '/api/counter/increment', headers: { 'content-type': 'application/json' }, body: '{"amount":1}' }],
];

async function measure(url: string, request: Http1Request): Promise<LoadResult> {
  // One connection per worker: a worker takes a free client, sends, and gives it back.
  const free = Array.from({ length: concurrency }, () => new Http1Client(url, request));
  const all = [...free];
  try {
    return await runClosedLoop(
      async () => {
        const client = free.pop()!;
        try {
          return (await client.send()) < 400;
        } finally {
          free.push(client);
        }
      },
      { concurrency, durationMs, warmupMs: 1000 },
    );
  } finally {
    for (const client of all) client.close();
  }
}

const hosts = [await startHost('http'), await startHost('both')];
const results = new Map<string, LoadResult[]>();
try {
  for (let round = 0; round < rounds; round++) {
    // Alternate which goes first, so neither always follows the other's load.
    const order = round % 2 === 0 ? hosts : [...hosts].reverse();
    for (const [label, request] of routes) {
      for (const host of order) {
        const key = `${label}|${host.transport}`;
        const result = await measure(host.url, request);
        results.set(key, [...(results.get(key) ?? []), result]);
      }
    }
  }
} finally {
  for (const host of hosts) host.stop();
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`| route | transport | req/s per round | median req/s | median p50 ms | median p99 ms |`);
console.log(`|---|---|---|---|---|---|`);
for (const [label] of routes) {
  for (const transport of ['http', 'both']) {
    const runs = results.get(`${label}|${transport}`) ?? [];
    console.log(
      `| ${label} | ${transport} | ${runs.map((r) => fmt(r.throughput)).join(', ')} | ${fmt(median(runs.map((r) => r.throughput)))} | ${fmt(median(runs.map((r) => r.p50)))} | ${fmt(median(runs.map((r) => r.p99)))} |`,
    );
  }
}
