/**
 * Load shedding: with every instance held (SSE streams the guest holds, --stream-relay off), a
 * request waits in a bounded queue for at most the deadline; beyond the bound at once, and at the
 * deadline, it gets 503 with Retry-After and the error envelope (a gRPC call: UNAVAILABLE in a
 * trailers-only response). Counted in host_admission_refused_total, logged once per interval.
 */
import http from 'node:http';
import http2 from 'node:http2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type HostProcess } from '../../harness/host-process.ts';
import { scrape } from '../support/prometheus.ts';
import { holdStream } from './overload.ts';

function get(port: number, path: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.once('end', () => resolve({ status: res.statusCode!, headers: res.headers, body, ms: performance.now() - started }));
      })
      .once('error', reject);
  });
}

describe('admission beyond the wait queue', () => {
  let host: HostProcess;
  let metricsPort: number;
  beforeAll(async () => {
    host = await startHost({
      args: [
        '--transport',
        'both',
        '--stream-relay',
        'off',
        '--instances-min',
        '1',
        '--instances-max',
        '2',
        '--instances-streaming',
        '2',
        '--admission-queue',
        '2',
        '--admission-wait-ms',
        '1500',
        '--metrics-port',
        '0',
      ],
    });
    metricsPort = Number(host.logs().find((l) => l.code === 'metrics_listening')?.port);
  });
  afterAll(async () => {
    await host?.kill();
  });

  it('answers 503 with Retry-After and the envelope (gRPC: UNAVAILABLE), counts it and logs one line per interval', async () => {
    const streams = [await holdStream(host.port), await holdStream(host.port)];
    // Two wait (the bound), the next three are refused at once.
    const queued = [get(host.port, '/api/counter/view?q=1'), get(host.port, '/api/counter/view?q=2')];
    await new Promise((resolve) => setTimeout(resolve, 300));
    const refused = await Promise.all([1, 2, 3].map((i) => get(host.port, `/api/counter/view?r=${i}`)));
    for (const answer of refused) {
      expect(answer.status).toBe(503);
      expect(answer.headers['retry-after']).toMatch(/^[1-9]\d*$/);
      expect(answer.headers['content-type']).toMatch(/application\/json/);
      expect(JSON.parse(answer.body)).toEqual({ error: { code: 'overloaded', message: expect.any(String) } });
      expect(answer.ms).toBeLessThan(1_000);
    }
    // The queued ones at their deadline.
    for (const answer of await Promise.all(queued)) {
      expect(answer.status).toBe(503);
      expect(answer.ms).toBeGreaterThanOrEqual(1_400);
    }

    // gRPC calls are long-lived: their share is held too; beyond its queue, UNAVAILABLE at once.
    const session = http2.connect(host.url);
    const grpcCall = () =>
      new Promise<http2.IncomingHttpHeaders>((resolve, reject) => {
        const stream = session.request({ ':method': 'POST', ':path': '/counter.v1.CounterService/GetCounterView', 'content-type': 'application/grpc', te: 'trailers' });
        stream.once('response', resolve);
        stream.once('error', reject);
        stream.resume();
        stream.end(Buffer.from([0, 0, 0, 0, 0]));
      });
    const grpc = await Promise.all([grpcCall(), grpcCall(), grpcCall()]);
    session.close();
    const unavailable = grpc.filter((headers) => headers['grpc-status'] === '14');
    expect(unavailable.length).toBeGreaterThanOrEqual(1);
    for (const headers of unavailable) {
      expect(headers[':status']).toBe(200);
      expect(headers['content-type']).toBe('application/grpc');
    }

    for (const stream of streams) stream.destroy();
    const metrics = await scrape(`http://127.0.0.1:${metricsPort}`);
    expect(metrics.value('host_admission_refused_total', { reason: 'queue_full' })).toBeGreaterThanOrEqual(4);
    expect(metrics.value('host_admission_refused_total', { reason: 'deadline' })).toBeGreaterThanOrEqual(2);
    const lines = host.logs().filter((l) => l.code === 'admission_refused');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'warn', interval_s: 10 });
  });
});
