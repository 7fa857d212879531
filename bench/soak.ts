/**
 * `npm run bench:soak [-- --minutes 10 --clients 8 --db sqlite|postgres|redis]`: mixed load over
 * every route family (counter REST reads and writes, SSE connect/drop, gRPC unary and server
 * streams, password login + session check, /pkg assets) against an in-process host, sampling RSS,
 * V8 heap, external memory and the guests' linear memory (summed over the pool's instances) every
 * 10 s. Prints a table and writes an SVG plot to docs/soak-<db>.svg (docs/memory.md).
 *
 * In-process so the pool's own counters are readable without a debug endpoint; the host is the
 * same one `node host/main.ts` starts (one worker).
 */
import http from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startHost } from '../host/app.ts';
import { loadConfig } from '../host/config.ts';
import { jsonLogger } from '../host/log.ts';
import { CounterViewSchema, GetCounterViewRequestSchema, WatchCounterRequestSchema, WatchCounterResponseSchema } from '../src/gen/counter_pb.js';
import { collect, CounterClient } from '../test/support/grpc.ts';
import { tempDataDir } from '../test/support/host-process.ts';
import { openSse } from '../test/support/sse.ts';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    clients: { type: 'string', default: '8' },
    db: { type: 'string', default: 'sqlite' },
    'sample-seconds': { type: 'string', default: '10' },
    extra: { type: 'string', default: '' },
  },
});
const minutes = Number(values.minutes);
const clients = Number(values.clients);
const sampleMs = Number(values['sample-seconds']) * 1000;

const config = loadConfig(
  [
    '--port',
    '0',
    '--transport',
    'both',
    '--db',
    values.db,
    '--data-dir',
    tempDataDir(),
    '--postgres-schema',
    'soak_bench',
    '--redis-prefix',
    'soak-bench:',
    ...values.extra.split(' ').filter(Boolean),
  ],
  process.env,
);
const host = await startHost(
  config,
  process.env,
  jsonLogger(() => undefined),
);
const base = `http://127.0.0.1:${host.port}`;
const agent = new http.Agent({ keepAlive: true, maxSockets: clients * 2 });
const grpcClient = new CounterClient(`127.0.0.1:${host.port}`);

function request(method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${path}`, { method, agent, headers: body ? { 'content-type': 'application/json', ...headers } : headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

const email = `soak-${Date.now()}@example.test`;
const password = 'correct horse battery staple';
await request('POST', '/api/auth/password/register', JSON.stringify({ email, password }));
const asset = (await request('GET', '/')).text.match(/\/pkg\/[A-Za-z0-9._-]+/)?.[0] ?? '/pkg/missing';

/** One exchange of each family, in turn; every client cycles through the list. */
const families: Array<[string, () => Promise<unknown>]> = [
  ['GET view', () => request('GET', '/api/counter/view')],
  ['POST increment', () => request('POST', '/api/counter/increment', '{"amount":1}')],
  ['GET view', () => request('GET', '/api/counter/view')],
  ['gRPC unary', () => grpcClient.unary('GetCounterView', GetCounterViewRequestSchema, CounterViewSchema, {})],
  ['/pkg asset', () => request('GET', asset)],
  [
    'login + session',
    async () => {
      const login = await request('POST', '/api/auth/password/login', JSON.stringify({ email, password }));
      const cookie = String(login.headers['set-cookie']?.[0] ?? '').split(';')[0] ?? '';
      await request('GET', '/api/auth/session', undefined, { cookie });
    },
  ],
  [
    'SSE churn',
    async () => {
      const sse = await openSse(`${base}/api/counter/stream`);
      await sse.waitFor((f) => f.event === 'counter', 5_000);
      sse.close();
    },
  ],
  [
    'gRPC stream',
    async () => {
      const call = grpcClient.serverStream('WatchCounter', WatchCounterRequestSchema, WatchCounterResponseSchema, { lastSequence: 0n });
      const watch = collect(call);
      await watch.waitFor(() => true, 5_000);
      call.cancel();
      await watch.status.catch(() => undefined);
    },
  ],
];

interface Sample {
  t: number;
  rss: number;
  heap: number;
  external: number;
  linear: number;
  instances: number;
  requests: number;
  errors: number;
}
const samples: Sample[] = [];
let requests = 0;
let errors = 0;
const mib = (n: number) => n / 1_048_576;
function sample(t: number): void {
  const m = process.memoryUsage();
  const stats = host.pool.instanceStats();
  samples.push({
    t,
    rss: mib(m.rss),
    heap: mib(m.heapUsed),
    external: mib(m.external),
    linear: mib(stats.reduce((n, s) => n + s.memoryBytes, 0)),
    instances: stats.length,
    requests,
    errors,
  });
  const s = samples.at(-1)!;
  console.log(
    `${String(Math.round(t)).padStart(5)} s  rss ${s.rss.toFixed(0).padStart(5)}  heap ${s.heap.toFixed(0).padStart(4)}  ext ${s.external.toFixed(0).padStart(4)}  linear ${s.linear.toFixed(0).padStart(5)} MiB (${s.instances} inst)  ${s.requests} exchanges, ${s.errors} errors`,
  );
}

const started = performance.now();
const end = started + minutes * 60_000;
sample(0);
const timer = setInterval(() => sample((performance.now() - started) / 1000), sampleMs);
await Promise.all(
  Array.from({ length: clients }, async (_, c) => {
    for (let i = c; performance.now() < end; i++) {
      try {
        await families[i % families.length]![1]();
        requests++;
      } catch {
        errors++;
      }
    }
  }),
);
clearInterval(timer);
sample((performance.now() - started) / 1000);
grpcClient.close();
agent.destroy();
await host.stop();

writeFileSync(join(import.meta.dirname, '..', 'docs', `soak-${values.db}.svg`), plot(samples, `soak, ${values.db}, ${clients} clients, ${minutes} min`));
console.log(`\nplot: docs/soak-${values.db}.svg`);

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
  const yMax = Math.max(1, ...points.flatMap((p) => series.map(([k]) => p[k] as number))) * 1.1;
  const x = (t: number) => L + ((W - L - R) * t) / tMax;
  const y = (v: number) => H - B - ((H - T - B) * v) / yMax;
  const lines = series.map(([k, label, color], i) => {
    const d = points.map((p, j) => `${j === 0 ? 'M' : 'L'}${x(p.t).toFixed(1)},${y(p[k] as number).toFixed(1)}`).join(' ');
    return `<path d="${d}" fill="none" stroke="${color}" stroke-width="2"/><text x="${W - R + 10}" y="${T + 20 + i * 20}" fill="${color}" font-size="12">${label}</text>`;
  });
  const ticks = [0, 0.25, 0.5, 0.75, 1].map(
    (f) =>
      `<text x="${L - 8}" y="${y(yMax * f) + 4}" text-anchor="end" font-size="11">${(yMax * f).toFixed(0)}</text><line x1="${L}" x2="${W - R}" y1="${y(yMax * f)}" y2="${y(yMax * f)}" stroke="#ddd"/>`,
  );
  const xt = [0, 0.5, 1].map((f) => `<text x="${x(tMax * f)}" y="${H - B + 16}" text-anchor="middle" font-size="11">${(tMax * f).toFixed(0)} s</text>`);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif"><rect width="100%" height="100%" fill="white"/><text x="${L}" y="18" font-size="13">${title} (MiB)</text>${ticks.join('')}${xt.join('')}${lines.join('')}</svg>\n`;
}
