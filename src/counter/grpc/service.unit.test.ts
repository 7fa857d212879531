/**
 * CounterService through the gRPC endpoint with Fetch requests (no sockets) over the in-memory
 * platform: success, each AppError mapping, and WatchCounter's side of the stream relay.
 */
import { create, fromBinary, toBinary, type DescMessage, type MessageInitShape } from '@bufbuild/protobuf';
import { describe, expect, it } from 'vitest';
import { StoreError } from '../../errors.ts';
import { ChangeCounterRequestSchema, ChangeOperation, CounterViewSchema, WatchCounterRequestSchema, WatchCounterResponseSchema } from '../../gen/counter_pb.js';
import { encodeFrame } from '../../grpc/frames.ts';
import { GrpcCode } from '../../grpc/status.ts';
import { trailersOf } from '../../http/trailers.ts';
import { testCounterDeps, type TestCounterDeps } from '../testing.ts';
import { counterGrpcEndpoint } from './routes.ts';

const SERVICE = '/counter.v1.CounterService';

function frames<D extends DescMessage>(schema: D, ...messages: Array<MessageInitShape<D>>): Uint8Array<ArrayBuffer> {
  const parts = messages.map((m) => encodeFrame(toBinary(schema, create(schema, m))));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.byteLength;
  }
  return out;
}

function request(method: string, body: Uint8Array<ArrayBuffer>, headers: Record<string, string> = {}): Request {
  return new Request(`http://localhost${SERVICE}/${method}`, { method: 'POST', headers: { 'content-type': 'application/grpc', ...headers }, body });
}

/** The length-prefixed messages of a response body. */
async function messagesOf(response: Response): Promise<Uint8Array[]> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  const messages: Uint8Array[] = [];
  for (let offset = 0; offset < bytes.byteLength; ) {
    const length = new DataView(bytes.buffer, bytes.byteOffset + offset + 1, 4).getUint32(0);
    messages.push(bytes.subarray(offset + 5, offset + 5 + length));
    offset += 5 + length;
  }
  return messages;
}

/** Reads every response message and the trailers. */
async function call(deps: TestCounterDeps, req: Request) {
  const response = await counterGrpcEndpoint(deps).serve(req);
  const messages = await messagesOf(response);
  const trailers = await trailersOf(response)!;
  return { response, messages, status: Number(trailers.get('grpc-status')), message: decodeURIComponent(trailers.get('grpc-message') ?? '') };
}

describe('CounterService over the gRPC endpoint', () => {
  it('Increment answers one CounterView and grpc-status 0', async () => {
    const deps = testCounterDeps();
    const result = await call(deps, request('Increment', frames(ChangeCounterRequestSchema, { amount: 3 })));
    expect(result.response.headers.get('content-type')).toBe('application/grpc');
    expect(result.status).toBe(GrpcCode.OK);
    expect(result.messages).toHaveLength(1);
    const view = fromBinary(CounterViewSchema, result.messages[0]!);
    expect(view.count).toBe(3);
    expect(view.lastSequence).toBe(1n);
    expect(view.latestEvents[0]?.eventType).toBe('incremented');
  });

  it.each([
    ['validation', () => undefined, { amount: 0 }, GrpcCode.INVALID_ARGUMENT, 'amount must be positive'],
    [
      'concurrency',
      (d: TestCounterDeps) => d.platform.faults.failAlways('append', new StoreError('conflict', 'x')),
      { amount: 1 },
      GrpcCode.ABORTED,
      'the counter was changed concurrently, try again',
    ],
    [
      'store',
      (d: TestCounterDeps) => d.platform.faults.failAlways('append', new StoreError('unavailable', 'down')),
      { amount: 1 },
      GrpcCode.UNAVAILABLE,
      'storage is unavailable, try again later',
    ],
    ['internal', (d: TestCounterDeps) => d.platform.faults.failAlways('append', new Error('SELECT secret')), { amount: 1 }, GrpcCode.INTERNAL, 'internal error'],
  ] as const)('maps a %s failure to its status with the public message', async (_name, arrange, input, status, message) => {
    const deps = testCounterDeps({ retry: { maxAttempts: 2 } });
    arrange(deps);
    const result = await call(deps, request('Increment', frames(ChangeCounterRequestSchema, input)));
    expect(result.messages).toHaveLength(0);
    expect(result.status).toBe(status);
    expect(result.message).toBe(message);
    expect(deps.platform.logger.entries.some((e) => e.fields?.['grpc_status'] === status)).toBe(true);
  });

  it('ApplyChanges runs each change in order and returns the last view', async () => {
    const deps = testCounterDeps();
    const { INCREMENT, DECREMENT, RESET } = ChangeOperation;
    const body = frames(ChangeCounterRequestSchema, { amount: 5, operation: INCREMENT }, { operation: RESET }, { amount: 2, operation: DECREMENT });
    const result = await call(deps, request('ApplyChanges', body));
    expect(result.status).toBe(GrpcCode.OK);
    expect(fromBinary(CounterViewSchema, result.messages[0]!).count).toBe(-2);
  });

  it('a unary call with two messages is INVALID_ARGUMENT; an unknown method is UNIMPLEMENTED; a bad grpc-timeout is INVALID_ARGUMENT', async () => {
    const deps = testCounterDeps();
    const two = await call(deps, request('Increment', frames(ChangeCounterRequestSchema, { amount: 1 }, { amount: 1 })));
    expect([two.status, two.message]).toEqual([GrpcCode.INVALID_ARGUMENT, 'expected exactly one request message, got 2']);
    const unknown = await call(deps, request('Nope', new Uint8Array()));
    expect(unknown.status).toBe(GrpcCode.UNIMPLEMENTED);
    const timeout = await call(deps, request('Increment', frames(ChangeCounterRequestSchema, { amount: 1 }), { 'grpc-timeout': 'soon' }));
    expect(timeout.status).toBe(GrpcCode.INVALID_ARGUMENT);
  });

  describe('WatchCounter through the host relay', () => {
    const poll = (deps: TestCounterDeps, after: number) =>
      counterGrpcEndpoint(deps).answerPoll(new Request(`http://localhost${SERVICE}/WatchCounter`, { headers: { 'x-app-relay-poll': String(after) } }));
    const state = (message: Uint8Array | undefined) => fromBinary(WatchCounterResponseSchema, message!);

    it('opens with the current state as one message and the relay instruction, and ends its body without trailers', async () => {
      const deps = testCounterDeps();
      await call(deps, request('Increment', frames(ChangeCounterRequestSchema, { amount: 4 })));
      const response = await counterGrpcEndpoint(deps).serve(request('WatchCounter', frames(WatchCounterRequestSchema, { lastSequence: 0n })));
      expect(response.headers.get('content-type')).toBe('application/grpc');
      expect(response.headers.get('x-app-relay')).toBe('channel=counter-test; mode=pubsub; interval=500; after=1');
      expect(trailersOf(response)).toBeUndefined(); // the host ends the call
      const messages = await messagesOf(response);
      expect(messages).toHaveLength(1);
      expect(state(messages[0]).lastSequence).toBe(1n);
      expect(state(messages[0]).view?.count).toBe(4);
    });

    it('answers a poll with each newer state as one message, and nothing when there is none', async () => {
      const deps = testCounterDeps();
      await call(deps, request('Increment', frames(ChangeCounterRequestSchema, { amount: 4 })));
      const idle = poll(deps, 1)!;
      expect(idle.headers.get('x-app-relay')).toContain('after=1');
      expect(await messagesOf(idle)).toHaveLength(0);
      await call(deps, request('Increment', frames(ChangeCounterRequestSchema, { amount: 2 })));
      const moved = poll(deps, 1)!;
      expect(moved.headers.get('x-app-relay')).toContain('after=2');
      const messages = await messagesOf(moved);
      expect(messages).toHaveLength(1);
      expect(state(messages[0]).view?.count).toBe(6);
    });

    it('a store failure during a poll sends nothing (it is logged; the next wake reads again)', async () => {
      const deps = testCounterDeps();
      await call(deps, request('Increment', frames(ChangeCounterRequestSchema, { amount: 4 })));
      deps.platform.failNext('readStream');
      const failed = poll(deps, 0)!;
      expect(failed.headers.get('x-app-relay')).toContain('after=0');
      expect(await messagesOf(failed)).toHaveLength(0);
      expect(deps.platform.logger.entries.some((e) => e.fields?.['code'] === 'store')).toBe(true);
    });

    it('refuses a call without exactly one request message, trailers-only, and is no poll for other paths', async () => {
      const deps = testCounterDeps();
      const two = await call(deps, request('WatchCounter', frames(WatchCounterRequestSchema, { lastSequence: 0n }, { lastSequence: 1n })));
      expect([two.status, two.message, two.messages.length]).toEqual([GrpcCode.INVALID_ARGUMENT, 'expected exactly one request message', 0]);
      const other = new Request(`http://localhost${SERVICE}/Increment`, { headers: { 'x-app-relay-poll': '0' } });
      expect(counterGrpcEndpoint(deps).answerPoll(other)).toBeUndefined();
    });
  });
});
