/**
 * A small closed-loop load generator: `concurrency` workers send requests back to back over
 * keep-alive connections for `durationMs`, after a warm-up; reports throughput and latency percentiles.
 */
import http from 'node:http';

export interface LoadResult {
  requests: number;
  errors: number;
  throughput: number;
  p50: number;
  p99: number;
}

export interface LoadSpec {
  url: string;
  method: 'GET' | 'POST';
  body?: string;
  headers?: Record<string, string>;
  concurrency: number;
  durationMs: number;
  warmupMs: number;
}

function once(agent: http.Agent, spec: LoadSpec): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(spec.url, { method: spec.method, agent, headers: spec.headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(spec.body);
  });
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export interface LoopSpec {
  concurrency: number;
  durationMs: number;
  warmupMs: number;
}

/** Runs `once` back to back from `concurrency` workers; `once` resolves true on success. */
export async function runClosedLoop(once: () => Promise<boolean>, spec: LoopSpec): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  let measuring = false;
  const warmEnd = performance.now() + spec.warmupMs;
  const end = warmEnd + spec.durationMs;
  const worker = async () => {
    while (performance.now() < end) {
      const t0 = performance.now();
      let ok = false;
      try {
        ok = await once();
      } catch {
        ok = false;
      }
      const t1 = performance.now();
      if (t0 >= warmEnd) {
        measuring = true;
        if (ok) latencies.push(t1 - t0);
        else errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: spec.concurrency }, worker));
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    errors,
    throughput: measuring ? latencies.length / (spec.durationMs / 1000) : 0,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: spec.concurrency });
  try {
    return await runClosedLoop(async () => (await once(agent, spec)) < 400, spec);
  } finally {
    agent.destroy();
  }
}

export interface RouteResult {
  route: string;
  result: LoadResult;
}

/** GET view, then POST increment, against one server: the two rows every HTTP benchmark compares. */
export async function counterRoutes(baseUrl: string, concurrency: number, durationMs: number): Promise<RouteResult[]> {
  const common = { concurrency, durationMs, warmupMs: Math.min(2000, durationMs / 2) };
  return [
    { route: 'GET /api/counter/view', result: await runLoad({ ...common, url: `${baseUrl}/api/counter/view`, method: 'GET' }) },
    {
      route: 'POST /api/counter/increment',
      result: await runLoad({ ...common, url: `${baseUrl}/api/counter/increment`, method: 'POST', body: '{"amount":1}', headers: { 'content-type': 'application/json' } }),
    },
  ];
}

/** Every tenth request of each worker is a POST increment, the rest GET view: a read-mostly mix (90/10). */
export async function counterMix(baseUrl: string, concurrency: number, durationMs: number): Promise<RouteResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const view: LoadSpec = { url: `${baseUrl}/api/counter/view`, method: 'GET', concurrency, durationMs, warmupMs: 0 };
  const write: LoadSpec = { ...view, url: `${baseUrl}/api/counter/increment`, method: 'POST', body: '{"amount":1}', headers: { 'content-type': 'application/json' } };
  let n = 0;
  try {
    const result = await runClosedLoop(async () => (await once(agent, n++ % 10 === 9 ? write : view)) < 400, { concurrency, durationMs, warmupMs: Math.min(2000, durationMs / 2) });
    return { route: 'mix 90% GET view / 10% POST increment', result };
  } finally {
    agent.destroy();
  }
}

/** A number for a table: two decimals below 10, none above. */
export const fmt = (n: number): string => (Number.isFinite(n) ? n.toFixed(n < 10 ? 2 : 0) : 'n/a');

/** The throughput/latency table the HTTP, gRPC and wasmtime benchmarks print: two label columns, then the result. */
export function loadTable(labels: [string, string], rows: ReadonlyArray<readonly [string, string, LoadResult]>): string {
  return [
    `| ${labels[0]} | ${labels[1]} | req/s | p50 ms | p99 ms | errors |`,
    '|---|---|---:|---:|---:|---:|',
    ...rows.map(([a, b, r]) => `| ${a} | ${b} | ${fmt(r.throughput)} | ${fmt(r.p50)} | ${fmt(r.p99)} | ${r.errors} |`),
  ].join('\n');
}
