/**
 * Transport modes against the real host: `grpc` serves only gRPC (other requests get the
 * plain-text 404), `http` refuses gRPC calls with UNIMPLEMENTED, `both` serves REST, SSE and gRPC
 * on one port over HTTP/1.1 and HTTP/2.
 */
import http2 from 'node:http2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GRPC_DISABLED, GRPC_MODE_NOT_FOUND } from '../../src/app.ts';
import { ChangeCounterRequestSchema, CounterViewSchema, GetCounterViewRequestSchema } from '../../src/gen/counter_pb.js';
import { CounterClient, grpc } from '../../harness/grpc.ts';
import { startHost, type HostProcess } from '../../harness/host-process.ts';
import { openSse } from '../../harness/sse.ts';

const SHORT_GRACE = ['--shutdown-grace-ms', '500'];

function withHost(transport: string, body: (get: () => { host: HostProcess; client: CounterClient }) => void) {
  let host: HostProcess;
  let client: CounterClient;
  beforeAll(async () => {
    host = await startHost({ args: ['--transport', transport, ...SHORT_GRACE] });
    client = new CounterClient(`127.0.0.1:${host.port}`);
  });
  afterAll(async () => {
    client?.close();
    await host?.stop();
  });
  body(() => ({ host, client }));
}

/** A plain GET over HTTP/2 prior knowledge. */
function h2Get(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const session = http2.connect(`http://127.0.0.1:${port}`);
    session.on('error', reject);
    const stream = session.request({ ':path': path });
    let status = 0;
    let body = '';
    stream.on('response', (headers) => (status = Number(headers[':status'])));
    stream.on('data', (c: Buffer) => (body += c.toString()));
    stream.on('end', () => {
      session.close();
      resolve({ status, body });
    });
    stream.on('error', reject);
  });
}

describe('transport grpc', () => {
  withHost('grpc', (get) => {
    it('serves gRPC', async () => {
      const view = await get().client.unary('Increment', ChangeCounterRequestSchema, CounterViewSchema, { amount: 2 });
      expect(view.count).toBe(2);
    });

    it('answers REST, the stream and UI paths with the plain-text gRPC-mode 404', async () => {
      const { host } = get();
      for (const [method, path] of [
        ['GET', '/api/counter/view'],
        ['POST', '/api/counter/increment'],
        ['GET', '/api/counter/stream'],
        ['GET', '/'],
        ['GET', '/pkg/app.js'],
      ] as const) {
        const response = await fetch(`${host.url}${path}`, { method });
        expect(response.status, path).toBe(404);
        expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
        expect(await response.text()).toBe(GRPC_MODE_NOT_FOUND);
      }
      expect(await h2Get(host.port, '/api/counter/view')).toEqual({ status: 404, body: GRPC_MODE_NOT_FOUND });
    });
  });
});

describe('transport http', () => {
  withHost('http', (get) => {
    it('refuses gRPC calls cleanly with UNIMPLEMENTED', async () => {
      await expect(get().client.unary('GetCounterView', GetCounterViewRequestSchema, CounterViewSchema, {})).rejects.toMatchObject({
        code: grpc.status.UNIMPLEMENTED,
        details: GRPC_DISABLED,
      });
      expect(
        get()
          .host.logs()
          .some((l) => l['code'] === 'grpc_disabled'),
      ).toBe(true);
    });

    it('still serves REST', async () => {
      const response = await fetch(`${get().host.url}/api/counter/view`);
      expect(response.status).toBe(200);
    });
  });
});

describe('transport both', () => {
  withHost('both', (get) => {
    it('serves REST over HTTP/1.1 and HTTP/2, SSE and gRPC on one port', async () => {
      const { host, client } = get();
      const grpcView = await client.unary('Increment', ChangeCounterRequestSchema, CounterViewSchema, { amount: 7 });
      const rest = (await (await fetch(`${host.url}/api/counter/view`)).json()) as { count: number; last_sequence: number };
      expect(rest).toMatchObject({ count: grpcView.count, last_sequence: Number(grpcView.lastSequence) });
      const overH2 = await h2Get(host.port, '/api/counter/view');
      expect(overH2.status).toBe(200);
      expect(JSON.parse(overH2.body)).toMatchObject({ count: grpcView.count });
      const sse = await openSse(`${host.url}/api/counter/stream`);
      try {
        await sse.waitFor((f) => f.event === 'counter');
      } finally {
        sse.close();
      }
    });
  });
});
