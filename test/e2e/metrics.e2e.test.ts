/**
 * The operations listener of a real host process (--metrics-port): /metrics scraped during and
 * after a load of REST increments and GETs, an SSE stream and a failed request, read by an
 * outside parser (parse-prometheus-text-format), and its counters compared with what was sent;
 * /livez and /readyz; and the listener staying off by default.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startHost, type HostProcess } from '../../harness/host-process.ts';
import { scrape, type Scrape } from '../support/prometheus.ts';
import { counterFrame, openSse } from '../../harness/sse.ts';

const INCREMENTS = 24;
const VIEWS = 12;

const increment = (url: string, body = '{"amount":1}') => fetch(`${url}/api/counter/increment`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

/** The difference of one series between two scrapes (an absent series counts 0). */
const grew = (before: Scrape, after: Scrape, name: string, labels: Record<string, string>) => (after.value(name, labels) ?? 0) - (before.value(name, labels) ?? 0);
const grewCount = (before: Scrape, after: Scrape, name: string, labels: Record<string, string>) => (after.count(name, labels) ?? 0) - (before.count(name, labels) ?? 0);

describe('--metrics-port: /metrics under load', () => {
  let host: HostProcess;
  let metricsUrl: string;

  beforeAll(async () => {
    const metricsPort = await freePort();
    host = await startHost({ args: ['--metrics-port', String(metricsPort)] });
    metricsUrl = `http://127.0.0.1:${metricsPort}`;
    expect(host.logs().find((l) => l['code'] === 'host_listening')?.['metrics_port']).toBe(metricsPort);
  });
  afterAll(async () => {
    await host?.stop();
  });

  it('moves the counters exactly as the load sent, and stays a valid exposition during it', async () => {
    const before = await scrape(metricsUrl);
    expect(before.value('host_sse_streams_open')).toBe(0);

    const sse = await openSse(`${host.url}/api/counter/stream`);
    await sse.waitFor((f) => f.retry === '1000');
    await expect.poll(async () => (await scrape(metricsUrl)).value('host_sse_streams_open'), { timeout: 5_000 }).toBe(1);

    // 4 clients × 6 increments and 12 view GETs, with scrapes while they run.
    const during: Scrape[] = [];
    const load = Promise.all([
      ...Array.from({ length: 4 }, async () => {
        for (let i = 0; i < INCREMENTS / 4; i++) expect((await increment(host.url)).status).toBe(200);
      }),
      (async () => {
        for (let i = 0; i < VIEWS; i++) expect((await fetch(`${host.url}/api/counter/view`)).status).toBe(200);
      })(),
    ]);
    for (let i = 0; i < 3; i++) during.push(await scrape(metricsUrl));
    await load;
    const failed = await increment(host.url, '{"amount":"many"}');
    expect(failed.status).toBe(400);
    await sse.waitFor(counterFrame(INCREMENTS), 5_000);
    const after = await scrape(metricsUrl);

    // Counters never go backwards from one scrape to the next.
    for (const [a, b] of [before, ...during, after].map((s, i, all) => [s, all[i + 1]] as const).slice(0, -1)) {
      expect(b!.value('host_http_exchanges_total', { method: 'POST', status: '200' }) ?? 0).toBeGreaterThanOrEqual(
        a.value('host_http_exchanges_total', { method: 'POST', status: '200' }) ?? 0,
      );
    }

    expect(grew(before, after, 'host_http_exchanges_total', { method: 'POST', status: '200' })).toBe(INCREMENTS);
    expect(grew(before, after, 'host_http_exchanges_total', { method: 'POST', status: '400' })).toBe(1);
    // The stream is still open: its GET counts when it ends.
    expect(grew(before, after, 'host_http_exchanges_total', { method: 'GET', status: '200' })).toBe(VIEWS);
    // The duration histogram saw every exchange the counter did.
    expect(grewCount(before, after, 'host_http_exchange_duration_seconds', { method: 'POST' })).toBe(INCREMENTS + 1);
    expect(grewCount(before, after, 'host_http_exchange_duration_seconds', { method: 'GET' })).toBe(VIEWS);

    // Each increment took one stream turn; the failed one was refused before it.
    expect(grewCount(before, after, 'host_wit_import_duration_seconds', { function: 'app:platform/stream-lease#acquire' })).toBe(INCREMENTS);
    expect(grewCount(before, after, 'host_wit_import_duration_seconds', { function: 'app:platform/stream-lease#Lease.append' })).toBe(INCREMENTS);
    expect(grew(before, after, 'host_wit_import_errors_total', { function: 'app:platform/stream-lease#Lease.append' })).toBe(0);
    // One append under the lease per increment; SQLite confirms each before the next is decided,
    // so each went to the store on its own (PostgreSQL and Redis batch them: round-trips.e2e.test.ts).
    expect(grew(before, after, 'host_stream_lease_appends_total', {})).toBe(INCREMENTS);
    expect(grew(before, after, 'host_stream_lease_store_appends_total', {})).toBe(INCREMENTS);
    expect(after.value('host_realtime_publish_failures_total')).toBe(0);
    // The held stream was woken by the increments: at least one poll, never more than one per wake-up.
    const polls = grew(before, after, 'host_relay_polls_total', {});
    expect(polls).toBeGreaterThanOrEqual(1);
    expect(polls).toBeLessThanOrEqual(INCREMENTS + 1);

    expect(after.value('host_guest_instances_created_total')).toBeGreaterThanOrEqual(2);
    expect(after.total('host_guest_instances')).toBeGreaterThanOrEqual(2);
    expect(after.value('host_guest_instances_ended_total', { reason: 'discarded' })).toBe(0);
    expect(after.value('host_guest_waiting_requests')).toBe(0);
    expect(after.value('host_dependency_up', { dependency: 'store' })).toBe(1);
    expect(after.value('host_worker_threads')).toBe(0);
    expect(after.value('host_event_loop_delay_seconds', { thread: 'main', quantile: '0.99' })).toBeGreaterThanOrEqual(0);
    // prom-client's default process metrics.
    expect(after.value('process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(after.value('process_start_time_seconds')).toBeGreaterThan(0);
    expect(after.value('nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    // No raw path anywhere in the labels: bounded cardinality.
    for (const family of after.families) for (const series of family.metrics) for (const value of Object.values(series.labels ?? {})) expect(value).not.toMatch(/^\/api/);

    sse.close();
    await expect.poll(async () => (await scrape(metricsUrl)).value('host_sse_streams_open'), { timeout: 5_000 }).toBe(0);
    const closed = await scrape(metricsUrl);
    expect(grew(before, closed, 'host_http_exchanges_total', { method: 'GET', status: '200' })).toBe(VIEWS + 1);
  });

  it('answers /livez and /readyz, and 404/405 for anything else', async () => {
    expect(await (await fetch(`${metricsUrl}/livez`)).json()).toEqual({ status: 'live' });
    const ready = await fetch(`${metricsUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', dependencies: { store: true } });
    expect((await fetch(`${metricsUrl}/`)).status).toBe(404);
    const post = await fetch(`${metricsUrl}/metrics`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    // The service's own health route is unchanged.
    expect(await (await fetch(`${host.url}/api/health`)).json()).toEqual({ status: 'ok' });
  });
});

describe('--metrics-port off (the default)', () => {
  it('opens no operations listener', async () => {
    const host = await startHost();
    try {
      const listening = host.logs().find((l) => l['code'] === 'host_listening');
      expect(listening).toBeDefined();
      expect(listening?.['metrics_port']).toBeUndefined();
      expect(host.logs().some((l) => l['code'] === 'metrics_listening')).toBe(false);
    } finally {
      await host.stop();
    }
  });
});
