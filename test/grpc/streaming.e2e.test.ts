/**
 * Streaming edge cases with a second client, @grpc/grpc-js, against the real host: cancel,
 * deadline, half-close, the message and stream limits, malformed frames (raw HTTP/2), and realtime
 * delivery between gRPC, REST and SSE.
 */
import http2 from 'node:http2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ChangeCounterRequestSchema,
  ChangeOperation,
  CounterViewSchema,
  GetCounterViewRequestSchema,
  InteractRequestSchema,
  InteractResponseSchema,
  WatchCounterRequestSchema,
  WatchCounterResponseSchema,
} from '../../src/gen/counter_pb.js';
import { collect, CounterClient, grpc, SERVICE } from '../../harness/grpc.ts';
import { startHost, type HostProcess } from '../../harness/host-process.ts';
import { counterFrame, openSse } from '../../harness/sse.ts';

const SHORT_GRACE = ['--shutdown-grace-ms', '500'];
const { INCREMENT, DECREMENT } = ChangeOperation;

const restIncrement = (url: string, amount = 1) =>
  fetch(`${url}/api/counter/increment`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ amount }) }).then(
    (r) => r.json() as Promise<{ last_sequence: number; count: number }>,
  );

describe('gRPC streaming with @grpc/grpc-js', () => {
  let host: HostProcess;
  let client: CounterClient;
  const view = () => client.unary('GetCounterView', GetCounterViewRequestSchema, CounterViewSchema, {});
  const increment = (amount: number) => client.unary('Increment', ChangeCounterRequestSchema, CounterViewSchema, { amount });

  beforeAll(async () => {
    // At most 3 instances, all of them open to gRPC calls: a cancelled watch that kept its instance would starve later calls.
    host = await startHost({ args: ['--transport', 'both', '--instances-min', '1', '--instances-max', '3', '--instances-streaming', '3', ...SHORT_GRACE] });
    client = new CounterClient(`127.0.0.1:${host.port}`);
  });
  afterAll(async () => {
    client?.close();
    await host?.stop();
  });

  it('WatchCounter sends the current state first, then each new state; cancel ends the guest work', async () => {
    const before = await increment(1);
    const call = client.serverStream('WatchCounter', WatchCounterRequestSchema, WatchCounterResponseSchema, { lastSequence: 0n });
    const watch = collect(call);
    const first = await watch.waitFor(() => true);
    expect(first.lastSequence).toBe(before.lastSequence);
    expect(first.view?.count).toBe(before.count);
    const next = await increment(2);
    await watch.waitFor((m) => m.lastSequence === next.lastSequence, 2_000);
    call.cancel();
    expect((await watch.status).code).toBe(grpc.status.CANCELLED);
    // The host's relay holds watches, not instances: two more, then a unary call (max 3 instances).
    const watches = [0, 1].map(() => client.serverStream('WatchCounter', WatchCounterRequestSchema, WatchCounterResponseSchema, { lastSequence: 0n }));
    const collected = watches.map((w) => collect(w));
    await Promise.all(collected.map((c) => c.waitFor(() => true)));
    const after = await client.unary('Increment', ChangeCounterRequestSchema, CounterViewSchema, { amount: 1 }, { deadline: Date.now() + 15_000 });
    expect(after.count).toBe(next.count + 1);
    for (const w of watches) w.cancel();
    await Promise.all(collected.map((c) => c.status));
  });

  it('WatchCounter: a client that cancels is not logged as an internal failure', async () => {
    for (let round = 0; round < 5; round++) {
      const call = client.serverStream('WatchCounter', WatchCounterRequestSchema, WatchCounterResponseSchema, { lastSequence: 0n });
      const watch = collect(call);
      await watch.waitFor(() => true);
      call.cancel();
      expect((await watch.status).code).toBe(grpc.status.CANCELLED);
    }
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const internal = host.logs().filter((l) => l['method'] === '/counter.v1.CounterService/WatchCounter' && l['code'] === 'internal');
    expect(internal).toEqual([]);
  });

  it('WatchCounter honours the deadline with DEADLINE_EXCEEDED after sending what it had', async () => {
    const call = client.serverStream('WatchCounter', WatchCounterRequestSchema, WatchCounterResponseSchema, { lastSequence: 0n }, { deadline: Date.now() + 1_500 });
    const watch = collect(call);
    const status = await watch.status;
    expect(status.code).toBe(grpc.status.DEADLINE_EXCEEDED);
    expect(watch.messages).toHaveLength(1);
  });

  it('ApplyChanges applies the stream in order after the client half-closes', async () => {
    const start = await view();
    const { call, result } = client.clientStream('ApplyChanges', ChangeCounterRequestSchema, CounterViewSchema);
    call.write({ amount: 5, operation: INCREMENT });
    call.write({ amount: 2, operation: DECREMENT });
    call.write({ amount: 3, operation: INCREMENT });
    call.end();
    const last = await result;
    expect(last.count).toBe(start.count + 6);
    expect(last.lastSequence).toBe(start.lastSequence + 3n);
    expect(last.latestEvents.slice(0, 3).map((e) => e.eventType)).toEqual(['incremented', 'decremented', 'incremented']);
  });

  it('ApplyChanges: an empty stream is INVALID_ARGUMENT; over 100 messages is RESOURCE_EXHAUSTED and commits nothing', async () => {
    const empty = client.clientStream('ApplyChanges', ChangeCounterRequestSchema, CounterViewSchema);
    empty.call.end();
    await expect(empty.result).rejects.toMatchObject({ code: grpc.status.INVALID_ARGUMENT, details: 'ApplyChanges needs at least one change' });

    const before = await view();
    const tooMany = client.clientStream('ApplyChanges', ChangeCounterRequestSchema, CounterViewSchema);
    for (let i = 0; i < 101; i++) tooMany.call.write({ amount: 1, operation: INCREMENT });
    tooMany.call.end();
    await expect(tooMany.result).rejects.toMatchObject({ code: grpc.status.RESOURCE_EXHAUSTED, details: 'more than 100 messages on one call' });
    expect((await view()).lastSequence).toBe(before.lastSequence);

    const exactly100 = client.clientStream('ApplyChanges', ChangeCounterRequestSchema, CounterViewSchema);
    for (let i = 0; i < 100; i++) exactly100.call.write({ amount: 1, operation: INCREMENT });
    exactly100.call.end();
    expect((await exactly100.result).count).toBe(before.count + 100);
  });

  it('Interact replies to each message while the stream stays open, then ends OK on half-close', async () => {
    const call = client.bidi('Interact', InteractRequestSchema, InteractResponseSchema);
    const replies = collect(call);
    call.write({ action: { case: 'watch', value: {} } });
    const first = await replies.waitFor(() => true);
    call.write({ action: { case: 'change', value: { amount: 4, operation: INCREMENT } } });
    const second = await replies.waitFor((m) => m.lastSequence > first.lastSequence);
    expect(second.view?.count).toBe((first.view?.count ?? 0) + 4);
    call.end();
    expect((await replies.status).code).toBe(grpc.status.OK);
    expect(replies.messages).toHaveLength(2);
  });

  it('refuses a message over 256 KiB with RESOURCE_EXHAUSTED and an undecodable one with INVALID_ARGUMENT', async () => {
    const big = Buffer.alloc(256 * 1024 + 1, 0);
    await expect(client.unaryRaw('Increment', big)).rejects.toMatchObject({ code: grpc.status.RESOURCE_EXHAUSTED });
    // Field 1 as a length-delimited field whose length runs past the end.
    await expect(client.unaryRaw('Increment', Buffer.from([0x0a, 0x7f, 0x01]))).rejects.toMatchObject({
      code: grpc.status.INVALID_ARGUMENT,
      details: 'the request message could not be decoded as counter.v1.ChangeCounterRequest',
    });
    // The host is still serving.
    expect((await view()).count).toBeTypeOf('number');
  });

  it('answers a malformed frame (truncated, or an unknown compressed flag) with INTERNAL, never a crash', async () => {
    const session = http2.connect(`http://127.0.0.1:${host.port}`);
    try {
      const send = (body: Buffer) =>
        new Promise<Record<string, unknown>>((resolve, reject) => {
          const stream = session.request({ ':method': 'POST', ':path': `/${SERVICE}/Increment`, 'content-type': 'application/grpc', te: 'trailers' });
          stream.on('trailers', (trailers) => resolve(trailers));
          stream.on('error', reject);
          stream.resume();
          stream.end(body);
        });
      const truncated = await send(Buffer.from([0, 0, 0, 0, 10, 0x08, 0x01]));
      expect(truncated['grpc-status']).toBe(String(grpc.status.INTERNAL));
      expect(truncated['grpc-message']).toBe('malformed gRPC frame: the request ended inside a message');
      const badFlag = await send(Buffer.from([7, 0, 0, 0, 0]));
      expect(badFlag['grpc-status']).toBe(String(grpc.status.INTERNAL));
    } finally {
      session.close();
    }
    expect((await view()).count).toBeTypeOf('number');
  });

  it('a gRPC Increment reaches an open SSE client and an open WatchCounter; a REST increment reaches WatchCounter', async () => {
    const start = await view();
    const call = client.serverStream('WatchCounter', WatchCounterRequestSchema, WatchCounterResponseSchema, { lastSequence: start.lastSequence });
    const watch = collect(call);
    const sse = await openSse(`${host.url}/api/counter/stream`, { 'last-event-id': String(start.lastSequence) });
    try {
      await watch.waitFor(() => true);
      await sse.waitFor((f) => f.retry === '1000');
      const viaGrpc = await increment(3);
      await watch.waitFor((m) => m.lastSequence === viaGrpc.lastSequence, 1_000);
      const frame = await sse.waitFor(counterFrame(Number(viaGrpc.lastSequence)), 1_000);
      expect(JSON.parse(frame.data!).view.count).toBe(viaGrpc.count);
      const viaRest = await restIncrement(host.url, 2);
      const delivered = await watch.waitFor((m) => m.lastSequence === BigInt(viaRest.last_sequence), 1_000);
      expect(delivered.view?.count).toBe(viaRest.count);
    } finally {
      sse.close();
      call.cancel();
    }
  });
});

describe('WatchCounter held by the host relay, not by a guest instance', () => {
  it('serves 20 open watches and a unary call with one instance, and wakes every watch within a second', { timeout: 60_000 }, async () => {
    const host = await startHost({ args: ['--transport', 'both', '--instances-min', '1', '--instances-max', '1', '--instances-streaming', '1', ...SHORT_GRACE] });
    const client = new CounterClient(`127.0.0.1:${host.port}`);
    try {
      // Opened one after another: each opening takes the instance for a moment (the admission queue is short at one instance).
      const calls = [];
      const watches = [];
      for (let i = 0; i < 20; i++) {
        const call = client.serverStream('WatchCounter', WatchCounterRequestSchema, WatchCounterResponseSchema, { lastSequence: 0n });
        const watch = collect(call);
        await watch.waitFor(() => true);
        calls.push(call);
        watches.push(watch);
      }
      const changed = await client.unary('Increment', ChangeCounterRequestSchema, CounterViewSchema, { amount: 1 }, { deadline: Date.now() + 5_000 });
      await Promise.all(watches.map((w) => w.waitFor((m) => m.lastSequence === changed.lastSequence, 1_000)));
      for (const call of calls) call.cancel();
      for (const w of watches) expect((await w.status).code).toBe(grpc.status.CANCELLED);
    } finally {
      client.close();
      await host.stop();
    }
  });
});

describe('graceful shutdown with an open gRPC stream', () => {
  it('ends open HTTP/2 streams after the grace period and exits 0', async () => {
    const host = await startHost({ args: ['--transport', 'both', '--shutdown-grace-ms', '1000'] });
    const client = new CounterClient(`127.0.0.1:${host.port}`);
    try {
      const watch = collect(client.serverStream('WatchCounter', WatchCounterRequestSchema, WatchCounterResponseSchema, { lastSequence: 0n }));
      await watch.waitFor(() => true);
      const started = Date.now();
      expect(await host.stop()).toBe(0);
      expect(Date.now() - started).toBeLessThan(10_000);
      // The relay ends the call itself: UNAVAILABLE, so a client may call another host.
      expect((await watch.status).code).toBe(grpc.status.UNAVAILABLE);
    } finally {
      client.close();
      await host.kill();
    }
  });
});
