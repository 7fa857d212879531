/**
 * Slow and silent clients against a real host process (`--transport both`), from the attacker's
 * side over real sockets: request heads sent a byte a second, connections kept open without a
 * request (idle, or fed bytes that start none), HTTP/2 connections without streams, request bodies
 * trickled at 2 bytes a second, and an HTTP/2 client that never opens its flow-control window.
 * Each must be cut within its time limit (host/http/), and none may hold a guest instance.
 */
import http2 from 'node:http2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startHost, type HostProcess } from '../../harness/host-process.ts';
import { scrape } from '../support/prometheus.ts';
import { rawConnect, trickle, type RawConnection } from '../support/raw-http1.ts';

const HEAD_S = 2;
const BODY_S = 3;
const KEEPALIVE_S = 1;
const HTTP2_IDLE_S = 2;
const SEND_S = 2;
/** Slack on every deadline: the host checks heads once a second, and the machine is shared. */
const SLACK_MS = 4_000;

const INCREMENT = '/api/counter/increment';
/** 40 bytes of valid JSON: a trickle at 2 B/s would take 20 s. */
const BODY = `{"amount":1}${' '.repeat(28)}`;

function postHead(path: string, length: number): string {
  return `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;
}

function h2Connect(url: string, settings: http2.Settings = {}): Promise<http2.ClientHttp2Session> {
  return new Promise((resolve, reject) => {
    const session = http2.connect(url, { settings });
    session.once('connect', () => resolve(session));
    session.once('error', reject);
  });
}

function busyInstances(metricsUrl: string): Promise<number> {
  return scrape(metricsUrl).then((s) => s.value('host_guest_instances', { state: 'busy' }) ?? Number.NaN);
}

describe('time limits on slow clients (host/http/)', () => {
  let host: HostProcess;
  let metricsUrl: string;

  beforeAll(async () => {
    const metricsPort = await freePort();
    metricsUrl = `http://127.0.0.1:${metricsPort}`;
    host = await startHost({
      args: [
        '--transport',
        'both',
        '--response-cache',
        'off',
        '--instances-max',
        '20',
        '--metrics-port',
        String(metricsPort),
        '--head-timeout-seconds',
        String(HEAD_S),
        '--body-timeout-seconds',
        String(BODY_S),
        '--keepalive-timeout-seconds',
        String(KEEPALIVE_S),
        '--http2-idle-timeout-seconds',
        String(HTTP2_IDLE_S),
        '--send-timeout-seconds',
        String(SEND_S),
      ],
    });
  });
  afterAll(async () => {
    await host?.stop();
  });

  it('answers 408 and closes a request head sent a byte a second, on a new and on a kept-alive connection', async () => {
    const head = `GET /api/counter/view HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ${'a'.repeat(100)}\r\n\r\n`;
    const fresh = await rawConnect(host.port);
    const stopFresh = trickle(fresh, head, 1000);
    const kept = await rawConnect(host.port);
    // The next head's first byte goes with the first request, so the connection is never idle
    // between them (an idle one is closed after the keep-alive timeout, a test of its own) however
    // late this process gets to send the rest.
    kept.socket.write(`GET /api/counter/view HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n${head[0]}`);
    await kept.waitFor(/^HTTP\/1\.1 200 [\s\S]*\r\n\r\n\{.*\}$/, 5_000);
    const stopKept = trickle(kept, head.slice(1), 250);
    try {
      // The head limit runs from each request's first byte (+1 s for that byte to be sent).
      for (const connection of [fresh, kept]) {
        await connection.waitFor(/HTTP\/1\.1 408 /, (HEAD_S + 1) * 1000 + SLACK_MS);
        await connection.closed;
      }
      expect(fresh.received()).toMatch(/^HTTP\/1\.1 408 /);
      expect(kept.received()).toMatch(/\}HTTP\/1\.1 408 /);
    } finally {
      stopFresh();
      stopKept();
      fresh.socket.destroy();
      kept.socket.destroy();
    }
    expect(host.logs().some((l) => l['code'] === 'http_head_timeout')).toBe(true);
  });

  it('closes a kept-alive connection that sends no next request: idle, or fed bytes that start none', async () => {
    const idle = await rawConnect(host.port);
    const fed = await rawConnect(host.port);
    for (const connection of [idle, fed]) {
      connection.socket.write('GET /api/counter/view HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      await connection.waitFor(/\r\n\r\n\{.*\}$/, 5_000);
    }
    // An empty line before a request line is allowed (RFC 9112 §2.2) and starts no request.
    const feeder = setInterval(() => fed.socket.write('\r\n'), 300);
    try {
      const deadline = (KEEPALIVE_S + HEAD_S) * 1000 + SLACK_MS;
      const closedIn = await Promise.race([Promise.all([idle.closed, fed.closed]), new Promise<undefined>((resolve) => setTimeout(resolve, deadline))]);
      expect(closedIn, `closed: idle ${idle.isClosed()}, fed ${fed.isClosed()}`).toBeDefined();
    } finally {
      clearInterval(feeder);
      idle.socket.destroy();
      fed.socket.destroy();
    }
  });

  it('sends GOAWAY to an HTTP/2 connection without an open stream and closes it', async () => {
    const used = await h2Connect(host.url);
    const unused = await h2Connect(host.url);
    const events = (session: http2.ClientHttp2Session) => {
      let goaway = false;
      session.on('goaway', () => (goaway = true));
      session.on('error', () => undefined);
      return {
        closed: new Promise<number>((resolve) => session.once('close', () => resolve(performance.now()))),
        goaway: () => goaway,
      };
    };
    const usedEvents = events(used);
    const unusedEvents = events(unused);
    const stream = used.request({ ':path': '/api/counter/view' });
    stream.resume();
    await new Promise((resolve) => stream.once('close', resolve));
    const idleFrom = performance.now();
    try {
      const closedAt = await Promise.race([
        Promise.all([usedEvents.closed, unusedEvents.closed]),
        new Promise<undefined>((resolve) => setTimeout(resolve, HTTP2_IDLE_S * 1000 + SLACK_MS)),
      ]);
      expect(closedAt, 'both sessions closed in time').toBeDefined();
      expect(Math.max(...closedAt!) - idleFrom).toBeGreaterThanOrEqual(HTTP2_IDLE_S * 1000 - 500);
      expect(usedEvents.goaway() && unusedEvents.goaway()).toBe(true);
    } finally {
      used.destroy();
      unused.destroy();
    }
  });

  it('reads 60 trickled bodies without holding instances, and answers each 408 after the body limit', async () => {
    const started = performance.now();
    const connections: RawConnection[] = [];
    const stops: Array<() => void> = [];
    for (let i = 0; i < 60; i++) {
      const connection = await rawConnect(host.port);
      connection.socket.write(postHead(INCREMENT, BODY.length));
      stops.push(trickle(connection, BODY, 500));
      connections.push(connection);
    }
    const session = await h2Connect(host.url);
    session.on('error', () => undefined);
    const h2Statuses = Array.from({ length: 5 }, () => {
      const stream = session.request({ ':method': 'POST', ':path': INCREMENT, 'content-type': 'application/json', 'content-length': String(BODY.length) });
      let at = 0;
      const timer = setInterval(() => (at < BODY.length && !stream.closed ? stream.write(BODY[at++]!) : clearInterval(timer)), 500);
      stream.resume();
      return new Promise<number | undefined>((resolve) => {
        stream.once('response', (headers) => resolve(Number(headers[':status'])));
        stream.once('close', () => {
          clearInterval(timer);
          resolve(undefined);
        });
      });
    });
    try {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      // While 65 bodies trickle in: no instance is held for them, and others are served at once.
      expect(await busyInstances(metricsUrl)).toBeLessThanOrEqual(1);
      const probeStarted = performance.now();
      const probe = await fetch(`${host.url}${INCREMENT}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"amount":1}',
        signal: AbortSignal.timeout(10_000),
      });
      expect(probe.status).toBe(200);
      expect(performance.now() - probeStarted).toBeLessThan(1_000);
      expect(await busyInstances(metricsUrl)).toBeLessThanOrEqual(1);

      for (const connection of connections) {
        await connection.waitFor(/^HTTP\/1\.1 408 /, BODY_S * 1000 + SLACK_MS);
        await connection.closed;
      }
      expect(performance.now() - started).toBeLessThan(BODY_S * 1000 + 60 * 50 + SLACK_MS);
      expect(JSON.parse(connections[0]!.received().split('\r\n\r\n')[1]!)).toEqual({
        error: { code: 'request_timeout', message: 'the request body did not arrive in time' },
      });
      expect(await Promise.all(h2Statuses)).toEqual([408, 408, 408, 408, 408]);
    } finally {
      for (const stop of stops) stop();
      for (const connection of connections) connection.socket.destroy();
      session.destroy();
    }
    // None of the trickled increments reached the guest: only the probe counted.
    const view = (await (await fetch(`${host.url}/api/counter/view`)).json()) as { count: number };
    expect(view.count).toBe(1);
    expect(host.logs().some((l) => l['code'] === 'http_body_timeout')).toBe(true);
  });

  it('cuts an HTTP/2 response whose client keeps its window at 0, and frees the instance', async () => {
    // SETTINGS_INITIAL_WINDOW_SIZE 0: the server may send headers, but no byte of any body.
    const session = await h2Connect(host.url, { initialWindowSize: 0 });
    session.on('error', () => undefined);
    const stream = session.request({ ':path': '/api/openapi.json' });
    stream.on('error', () => undefined);
    const closed = new Promise<number>((resolve) => stream.once('close', () => resolve(stream.rstCode)));
    try {
      await new Promise((resolve) => stream.once('response', resolve));
      // The guest is blocked writing its body: it holds an instance until the response is cut.
      await expect.poll(() => busyInstances(metricsUrl), { timeout: 3_000 }).toBe(1);
      const rstCode = await Promise.race([closed, new Promise<undefined>((resolve) => setTimeout(resolve, SEND_S * 1000 + SLACK_MS))]);
      expect(rstCode ?? 'still open', 'the stream was reset with CANCEL').toBe(http2.constants.NGHTTP2_CANCEL);
      await expect.poll(() => busyInstances(metricsUrl), { timeout: 3_000 }).toBe(0);
      expect(host.logs().some((l) => l['code'] === 'http_send_timeout')).toBe(true);
    } finally {
      session.destroy();
    }
  });
});

describe('request bodies read before a guest instance is taken', () => {
  let host: HostProcess;
  let metricsUrl: string;
  beforeAll(async () => {
    const metricsPort = await freePort();
    metricsUrl = `http://127.0.0.1:${metricsPort}`;
    host = await startHost({ args: ['--transport', 'both', '--instances-min', '1', '--instances-max', '1', '--metrics-port', String(metricsPort)] });
  });
  afterAll(async () => {
    await host?.stop();
  });

  it('answers a Content-Length beyond 256 KiB with the REST envelope 413 while the only instance is busy', async () => {
    // A client-streaming gRPC call that never ends holds the only instance.
    const session = await h2Connect(host.url);
    session.on('error', () => undefined);
    const call = session.request({ ':method': 'POST', ':path': '/counter.v1.CounterService/ApplyChanges', 'content-type': 'application/grpc', te: 'trailers' });
    call.on('error', () => undefined);
    try {
      await expect.poll(() => busyInstances(metricsUrl), { timeout: 5_000 }).toBe(1);
      const big = await rawConnect(host.port);
      const started = performance.now();
      big.socket.write(postHead(INCREMENT, 300_000));
      await big.waitFor(/\r\n\r\n\{.*\}$/, 5_000);
      expect(performance.now() - started).toBeLessThan(1_000);
      const [head, body] = big.received().split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1\.1 413 /);
      expect(head).toMatch(/\r\ncache-control: no-store/i);
      expect(head).toMatch(/\r\nconnection: close/i);
      // The envelope the guest's REST routes answer for an over-long body (src/counter/rest.ts).
      expect(JSON.parse(body!)).toEqual({ error: { code: 'payload_too_large', message: 'request body exceeds 256 KiB' } });
      await big.closed;
    } finally {
      call.close();
      session.destroy();
    }
  });

  it('hands the guest the same body it streamed before: chunked, HTTP/2 without Content-Length, and chunked past 256 KiB', async () => {
    await expect.poll(() => busyInstances(metricsUrl), { timeout: 5_000 }).toBe(0);
    const before = ((await (await fetch(`${host.url}/api/counter/view`)).json()) as { count: number }).count;
    // Chunked over HTTP/1.1, in pieces a moment apart.
    const chunked = await rawConnect(host.port);
    chunked.socket.write(`POST ${INCREMENT} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`);
    for (const piece of ['{"amo', 'unt":', '2}']) {
      chunked.socket.write(`${piece.length.toString(16)}\r\n${piece}\r\n`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    chunked.socket.write('0\r\n\r\n');
    await chunked.waitFor(/\r\n\r\n\{.*\}$/, 5_000);
    expect(chunked.received()).toMatch(/^HTTP\/1\.1 200 /);
    chunked.socket.destroy();
    // HTTP/2 without Content-Length.
    const session = await h2Connect(host.url);
    const stream = session.request({ ':method': 'POST', ':path': INCREMENT, 'content-type': 'application/json' });
    stream.write('{"amount"');
    await new Promise((resolve) => setTimeout(resolve, 50));
    stream.end(':3}');
    const status = await new Promise((resolve) => stream.once('response', (h) => resolve(h[':status'])));
    stream.resume();
    session.close();
    expect(status).toBe(200);
    const after = ((await (await fetch(`${host.url}/api/counter/view`)).json()) as { count: number }).count;
    expect(after - before).toBe(5);
    // Past 256 KiB without a length: the guest still reads it and answers with its own 413.
    const long = await rawConnect(host.port);
    long.socket.write(`POST ${INCREMENT} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`);
    const piece = ' '.repeat(16_384);
    for (let i = 0; i < 20; i++) long.socket.write(`4000\r\n${piece}\r\n`);
    long.socket.write('0\r\n\r\n');
    await long.waitFor(/\r\n\r\n\{.*\}$/, 10_000);
    expect(long.received()).toMatch(/^HTTP\/1\.1 413 /);
    expect(long.received()).toContain('"payload_too_large"');
    long.socket.destroy();
  });
});
