/**
 * What must not grow, counted: the host resource handles a guest instance holds (jco's handle
 * tables over every resource type, and the host objects its capture maps keep alive) after N
 * exchanges of each kind equal the count after one. A handle the guest never drops shows up here
 * as N - 1 extra entries (the incoming-request and its headers did, two per request: docs/memory.md).
 *
 * The host runs in-process with one instance, so the pool's own `instanceStats()` sees every
 * handle. Each kind is warmed first: the guest keeps a response-head template (a `fields` handle)
 * once a head is seen twice (src/http/fields-cache.ts), a bounded cache that is not a leak.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningHost } from '../../host/app.ts';
import { CounterViewSchema, GetCounterViewRequestSchema, WatchCounterRequestSchema, WatchCounterResponseSchema } from '../../src/gen/counter_pb.js';
import { cookieHeader, postJson, register, sessionIdFrom } from '../auth/support.ts';
import { collect, CounterClient } from '../../harness/grpc.ts';
import { openSse } from '../../harness/sse.ts';
import { startOneInstanceHost } from './one-instance-host.ts';

const N = 25;

let host: RunningHost;
let base: string;
let grpcClient: CounterClient;

beforeAll(async () => {
  host = await startOneInstanceHost(['--transport', 'both']);
  base = `http://127.0.0.1:${host.port}`;
  grpcClient = new CounterClient(`127.0.0.1:${host.port}`);
});
afterAll(async () => {
  grpcClient?.close();
  await host?.stop();
});

/** Live handles and captured host objects over every instance, once no exchange is running. */
async function live(): Promise<{ handles: number; captured: number }> {
  await host.pool.idle();
  // A relayed SSE stream or a cancelled gRPC call ends its guest part a moment after the client side.
  await new Promise((resolve) => setTimeout(resolve, 300));
  await host.pool.idle();
  const stats = host.pool.instanceStats();
  return { handles: stats.reduce((n, s) => n + s.handles, 0), captured: stats.reduce((n, s) => n + s.captured, 0) };
}

/**
 * `slack`: for exchanges whose response heads change as the event sequence grows (a longer JSON
 * body, another content-length), each new head may become a template, up to the cache's 64; such
 * kinds run 100 rounds and may gain at most `slack` handles, far below the 100 that one handle
 * kept per exchange would add.
 */
async function expectFlat(exchange: () => Promise<void>, { n = N, slack = 0 } = {}): Promise<void> {
  for (let i = 0; i < 5; i++) await exchange(); // warm: head templates, first-use caches
  await exchange();
  const afterOne = await live();
  for (let i = 0; i < n; i++) await exchange();
  const afterN = await live();
  if (slack === 0) expect(afterN).toEqual(afterOne);
  else {
    expect(afterN.handles - afterOne.handles).toBeLessThanOrEqual(slack);
    expect(afterN.captured - afterOne.captured).toBeLessThanOrEqual(slack);
  }
  expect(host.pool.instanceStats().every((s) => s.createdReps === 0)).toBe(true);
}

async function ok(response: Response | Promise<Response>): Promise<void> {
  const r = await response;
  await r.arrayBuffer();
  expect(r.status).toBeLessThan(400);
}

describe('host resource handles per exchange kind', () => {
  it('GET /api/counter/view', () => expectFlat(() => ok(fetch(`${base}/api/counter/view`))));

  // An increment, then a reset: the count (and so each response head) comes back to where it was.
  it('POST /api/counter/increment and /reset', () =>
    expectFlat(
      async () => {
        await ok(fetch(`${base}/api/counter/increment`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"amount":1}' }));
        await ok(fetch(`${base}/api/counter/reset`, { method: 'POST' }));
      },
      { n: 100, slack: 8 },
    ));

  // The UI's server functions: an increment, a view, a reset (the count comes back to where it was).
  it('server functions increment_count, get_counter_view and reset_count', () =>
    expectFlat(
      async () => {
        await ok(fetch(`${base}/api/increment_count`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"amount":1}' }));
        await ok(fetch(`${base}/api/get_counter_view`));
        await ok(fetch(`${base}/api/reset_count`, { method: 'POST' }));
      },
      { n: 100, slack: 8 },
    ));

  it('SSE open, first frame, close', () =>
    expectFlat(
      async () => {
        const sse = await openSse(`${base}/api/counter/stream`);
        await sse.waitFor((f) => f.event === 'counter');
        sse.close();
      },
      { n: 100, slack: 8 },
    ));

  it('gRPC unary GetCounterView', () =>
    expectFlat(async () => {
      await grpcClient.unary('GetCounterView', GetCounterViewRequestSchema, CounterViewSchema, {});
    }));

  // The host's relay holds the stream and drops it when the client resets it.
  it('gRPC server stream WatchCounter, first message, cancel', { timeout: 60_000 }, () =>
    expectFlat(
      async () => {
        const call = grpcClient.serverStream('WatchCounter', WatchCounterRequestSchema, WatchCounterResponseSchema, { lastSequence: 0n });
        const watch = collect(call);
        await watch.waitFor(() => true);
        call.cancel();
        await watch.status;
      },
      { n: 100, slack: 8 },
    ),
  );

  it('a /pkg asset', async () => {
    const page = await (await fetch(`${base}/`)).text();
    const asset = page.match(/\/pkg\/[A-Za-z0-9._-]+/)?.[0];
    expect(asset).toBeDefined();
    await expectFlat(() => ok(fetch(`${base}${asset}`)));
  });

  it('password login and a session check', async () => {
    const { email } = await register(base);
    await expectFlat(async () => {
      const login = await postJson(base, '/api/auth/password/login', { email, password: 'correct horse battery staple' });
      await login.arrayBuffer();
      expect(login.status).toBe(200);
      const sessionId = sessionIdFrom(login);
      expect(sessionId).toBeDefined();
      await ok(fetch(`${base}/api/auth/session`, { headers: cookieHeader(sessionId!) }));
    });
  });
});
