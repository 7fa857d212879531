/**
 * The closed-loop load every benchmark measures with: `concurrency` workers, each sending requests
 * back to back on its own keep-alive connection (the lean client of ./http1-client.ts) for
 * `durationMs` after a warm-up; throughput and latency percentiles of the successful answers.
 */
import { Http1Client, type Http1Request } from './http1-client.ts';
import { percentile } from './stats.ts';
import { fmt, markdownTable } from './table.ts';

export interface LoadResult {
  requests: number;
  errors: number;
  throughput: number;
  p50: number;
  p99: number;
}

export interface LoopSpec {
  concurrency: number;
  durationMs: number;
  warmupMs: number;
}

/** The two counter routes every HTTP benchmark compares. */
export const COUNTER_VIEW: Http1Request = { method: 'GET', path: '/api/counter/view' };
export const COUNTER_INCREMENT: Http1Request = { method: 'POST', path: '/api/counter/increment', headers: { 'content-type': 'application/json' }, body: '{"amount":1}' };

/** Warm-up of the HTTP benchmarks: half the measured time, at most 2 s. */
export const warmupFor = (durationMs: number): number => Math.min(2000, durationMs / 2);

/**
 * Runs `once(worker)` back to back from `concurrency` workers (numbered from 0); `once` resolves
 * true on success. Answers that started during the warm-up are not counted.
 */
export async function runClosedLoop(once: (worker: number) => Promise<boolean>, spec: LoopSpec): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  let measuring = false;
  const warmEnd = performance.now() + spec.warmupMs;
  const end = warmEnd + spec.durationMs;
  const worker = async (_: unknown, index: number) => {
    while (performance.now() < end) {
      const t0 = performance.now();
      let ok = false;
      try {
        ok = await once(index);
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

/** One connection per worker, opened on first use and closed at the end. */
export async function withClients<T>(count: number, open: (worker: number) => Http1Client, use: (clients: Http1Client[]) => Promise<T>): Promise<T> {
  const clients = Array.from({ length: count }, (_, i) => open(i));
  try {
    return await use(clients);
  } finally {
    for (const client of clients) client.close();
  }
}

/** `request` against `baseUrl` from `concurrency` workers; an answer below 400 is a success. */
export function runLoad(baseUrl: string, request: Http1Request, spec: LoopSpec): Promise<LoadResult> {
  return withClients(
    spec.concurrency,
    () => new Http1Client(baseUrl, request),
    (clients) => runClosedLoop(async (worker) => (await clients[worker]!.send()) < 400, spec),
  );
}

export interface RouteResult {
  route: string;
  result: LoadResult;
}

/** GET view, then POST increment, against one server: the two rows every HTTP benchmark compares. */
export async function counterRoutes(baseUrl: string, concurrency: number, durationMs: number): Promise<RouteResult[]> {
  const spec = { concurrency, durationMs, warmupMs: warmupFor(durationMs) };
  return [
    { route: 'GET /api/counter/view', result: await runLoad(baseUrl, COUNTER_VIEW, spec) },
    { route: 'POST /api/counter/increment', result: await runLoad(baseUrl, COUNTER_INCREMENT, spec) },
  ];
}

/** Every tenth request of each worker is a POST increment, the rest GET view: a read-mostly mix (90/10). */
export async function counterMix(baseUrl: string, concurrency: number, durationMs: number): Promise<RouteResult> {
  const views = Array.from({ length: concurrency }, () => new Http1Client(baseUrl, COUNTER_VIEW));
  let n = 0;
  const result = await withClients(
    concurrency,
    () => new Http1Client(baseUrl, COUNTER_INCREMENT),
    (writes) => runClosedLoop(async (worker) => (await (n++ % 10 === 9 ? writes : views)[worker]!.send()) < 400, { concurrency, durationMs, warmupMs: warmupFor(durationMs) }),
  ).finally(() => {
    for (const client of views) client.close();
  });
  return { route: 'mix 90% GET view / 10% POST increment', result };
}

/** The throughput/latency table of the load benchmarks: two label columns, then the result. */
export function loadTable(labels: readonly [string, string], rows: ReadonlyArray<readonly [string, string, LoadResult]>): string {
  return markdownTable(
    [...labels, 'req/s', 'p50 ms', 'p99 ms', 'errors'],
    rows.map(([a, b, r]) => [a, b, fmt(r.throughput), fmt(r.p50), fmt(r.p99), r.errors]),
    ['l', 'l', 'r', 'r', 'r', 'r'],
  );
}
