/**
 * The attack: one client opens SSE streams that it never reads, more than the host lets one
 * client have in flight. The relay holds them without a guest instance, so admission never sheds
 * them, yet each opening ran the guest and the other clients' connections waited behind the
 * attacker's. With --client-exchange-limit, its next request is answered 429 (gRPC:
 * RESOURCE_EXHAUSTED) before any instance is taken, while another client is served at once; its
 * count comes back when its streams close. Behind a trusted proxy the count is the forwarded
 * client's (IPv6 per /64), not the proxy's.
 *
 * Clients connect from distinct loopback addresses (Linux routes all of 127/8 to loopback): the
 * attacker from 127.0.0.2, the proxy from 127.0.0.3, everyone else from 127.0.0.1.
 */
import http from 'node:http';
import http2 from 'node:http2';
import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type HostProcess } from '../../harness/host-process.ts';
import { scrape } from '../support/prometheus.ts';
import { openNonReader } from '../support/non-reading-sse.ts';

const LIMIT = 16;
const ATTACKER = '127.0.0.2';
const PROXY = '127.0.0.3';
const STREAM = '/api/counter/stream';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  ms: number;
}

/** One request on a connection of its own from `from`. */
function send(port: number, from: string, path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method: options.method ?? 'GET', localAddress: from, agent: false, headers: options.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.once('end', () => resolve({ status: res.statusCode!, headers: res.headers, body, ms: performance.now() - started }));
    });
    req.once('error', reject);
    req.end(options.body);
  });
}

async function openNonReaders(count: number, open: (i: number) => Promise<net.Socket>): Promise<net.Socket[]> {
  const sockets: net.Socket[] = [];
  for (let i = 0; i < count; i++) sockets.push(await open(i));
  held.push(...sockets);
  return sockets;
}

const held: net.Socket[] = [];
afterEach(() => {
  for (const socket of held.splice(0)) socket.destroy();
});

function expectTooMany(answer: Answer): void {
  expect(answer.status).toBe(429);
  expect(answer.headers['retry-after']).toMatch(/^[1-9]\d*$/);
  expect(answer.headers['content-type']).toMatch(/application\/json/);
  expect(JSON.parse(answer.body)).toEqual({ error: { code: 'too_many_exchanges', message: expect.any(String) } });
}

describe('exchanges in flight per client', () => {
  let host: HostProcess;
  let metricsUrl: string;
  beforeAll(async () => {
    host = await startHost({ args: ['--transport', 'both', '--client-exchange-limit', String(LIMIT), '--trusted-proxies', PROXY, '--metrics-port', '0'] });
    metricsUrl = `http://127.0.0.1:${host.logs().find((l) => l.code === 'metrics_listening')?.port}`;
  });
  afterAll(async () => {
    await host?.kill();
  });
  const metric = async (name: string) => (await scrape(metricsUrl)).value(name) ?? Number.NaN;
  const count = async () => (JSON.parse((await send(host.port, '127.0.0.1', `/api/counter/view?fresh=${performance.now()}`)).body) as { count: number }).count;

  it('past the limit, one client gets 429 without a guest run while another is served; closing its streams frees its count', async () => {
    const streams = await openNonReaders(LIMIT, () => openNonReader(host.port, ATTACKER));
    await expect.poll(() => metric('host_client_exchanges_busiest')).toBe(LIMIT);
    const before = await count();

    const [stream, increment, other] = await Promise.all([
      send(host.port, ATTACKER, STREAM, { headers: { accept: 'text/event-stream' } }),
      send(host.port, ATTACKER, '/api/counter/increment', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"amount":1}' }),
      send(host.port, '127.0.0.1', '/api/counter/view?other=1'),
    ]);
    expectTooMany(stream);
    expectTooMany(increment);
    // The guest never ran the refused increment: the count is unchanged.
    expect(await count()).toBe(before);
    expect(other.status).toBe(200);
    expect(other.ms).toBeLessThan(2_000);

    // HTTP/2 counts each stream: a gRPC call from the attacker gets RESOURCE_EXHAUSTED, trailers-only.
    const session = http2.connect(host.url, { createConnection: () => net.connect({ port: host.port, host: '127.0.0.1', localAddress: ATTACKER }) });
    const grpc = await new Promise<http2.IncomingHttpHeaders>((resolve, reject) => {
      const call = session.request({ ':method': 'POST', ':path': '/counter.v1.CounterService/GetCounterView', 'content-type': 'application/grpc', te: 'trailers' });
      call.once('response', resolve);
      call.once('error', reject);
      call.resume();
      call.end(Buffer.from([0, 0, 0, 0, 0]));
    });
    session.close();
    expect(grpc[':status']).toBe(200);
    expect(grpc['grpc-status']).toBe('8');

    expect(await metric('host_client_limit_refused_total')).toBeGreaterThanOrEqual(3);
    const lines = host.logs().filter((l) => l.code === 'client_exchange_limit');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'warn', client: ATTACKER, limit: LIMIT });

    for (const socket of streams) socket.destroy();
    await expect.poll(() => metric('host_client_exchanges_busiest'), { timeout: 5_000 }).toBe(0);
    expect((await send(host.port, ATTACKER, '/api/counter/view')).status).toBe(200);
  }, 60_000);

  it('behind a trusted proxy, counts per forwarded client (IPv6 per /64), not per proxy', async () => {
    await openNonReaders(LIMIT, () => openNonReader(host.port, PROXY, { 'x-forwarded-for': '198.51.100.7' }));
    expectTooMany(await send(host.port, PROXY, '/api/counter/view', { headers: { 'x-forwarded-for': '198.51.100.7' } }));
    // Another client through the same proxy, and the proxy's own requests, are served.
    expect((await send(host.port, PROXY, '/api/counter/view', { headers: { 'x-forwarded-for': '198.51.100.8' } })).status).toBe(200);
    expect((await send(host.port, PROXY, '/api/counter/view')).status).toBe(200);

    // Every address of one /64 is one client: fresh interface ids do not buy more.
    await openNonReaders(LIMIT, (i) => openNonReader(host.port, PROXY, { 'x-forwarded-for': `2001:db8:1:2::${(i + 1).toString(16)}` }));
    expectTooMany(await send(host.port, PROXY, '/api/counter/view', { headers: { 'x-forwarded-for': '2001:db8:1:2:abcd::99' } }));
    expect((await send(host.port, PROXY, '/api/counter/view', { headers: { 'x-forwarded-for': '2001:db8:1:3::1' } })).status).toBe(200);
  }, 60_000);
});
