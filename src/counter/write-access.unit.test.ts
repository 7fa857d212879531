/**
 * COUNTER_WRITES on every command surface of the whole app (REST, server functions, gRPC), natively
 * over the in-memory platform, with sessions made by the auth routes themselves: who may send a
 * command, and what its events record of the sender.
 */
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { parseConfig } from '../config.ts';
import { GUEST_ENV } from '../contract/environment.ts';
import { ChangeCounterRequestSchema, ChangeOperation, CounterViewSchema, InteractRequestSchema, InteractResponseSchema } from '../gen/counter_pb.js';
import { encodeFrame } from '../grpc/frames.ts';
import { GrpcCode } from '../grpc/status.ts';
import { trailersOf } from '../http/trailers.ts';
import { createMemoryPlatform, type MemoryPlatform } from '../platform/testing/memory-platform.ts';
import { COUNTER_STREAM_ID } from './domain/counter.ts';
import type { CounterView } from './application/view.ts';

const EMAIL = 'writer@example.com';
const PASSWORD = 'correct horse battery staple';

function setup(writes: string) {
  const platform = createMemoryPlatform();
  const app = buildApp(
    platform,
    parseConfig([
      ['COUNTER_WRITES', writes],
      ['TRANSPORT', 'both'],
      [GUEST_ENV.grpcSupported, 'true'],
    ]),
  );
  const json = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    app.fetch(new Request(`http://localhost${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }));
  /** Registers and signs in through the auth routes; the session cookie as a request header. */
  const signIn = async (): Promise<{ cookie: string; userId: string }> => {
    expect((await json('/api/auth/password/register', { email: EMAIL, password: PASSWORD })).status).toBe(202);
    const login = await json('/api/auth/password/login', { email: EMAIL, password: PASSWORD });
    expect(login.status).toBe(200);
    return { cookie: login.headers.getSetCookie()[0]!.split(';')[0]!, userId: ((await login.json()) as { user_id: string }).user_id };
  };
  const grpc = async (method: string, body: Uint8Array<ArrayBuffer>, headers: Record<string, string> = {}) => {
    const response = await app.fetch(
      new Request(`http://localhost/counter.v1.CounterService/${method}`, { method: 'POST', headers: { 'content-type': 'application/grpc', ...headers }, body }),
    );
    const bytes = new Uint8Array(await response.arrayBuffer());
    const trailers = await trailersOf(response)!;
    return { bytes, status: Number(trailers.get('grpc-status')), message: decodeURIComponent(trailers.get('grpc-message') ?? '') };
  };
  return { platform, app, json, signIn, grpc };
}

const frame = (amount: number): Uint8Array<ArrayBuffer> =>
  new Uint8Array(encodeFrame(toBinary(ChangeCounterRequestSchema, create(ChangeCounterRequestSchema, { amount, operation: ChangeOperation.INCREMENT }))));

/** The metadata of every stored counter event. */
const storedMetadata = (platform: MemoryPlatform) => platform.events.readStream(COUNTER_STREAM_ID, { direction: 'forward', limit: 100 }).map((e) => e.metadata);

describe('COUNTER_WRITES=signed-in', () => {
  it('refuses every surface without a session: REST and server functions 401 in the envelope, gRPC UNAUTHENTICATED', async () => {
    const { platform, json, grpc } = setup('signed-in');
    for (const path of ['/api/counter/increment', '/api/increment_count']) {
      const response = await json(path, { amount: 1 });
      expect(response.status, path).toBe(401);
      expect(await response.json()).toEqual({ error: { code: 'unauthorized', message: 'sign in first' } });
    }
    expect(await grpc('Increment', frame(1))).toMatchObject({ status: GrpcCode.UNAUTHENTICATED, message: 'sign in first' });
    expect(await grpc('ApplyChanges', frame(1))).toMatchObject({ status: GrpcCode.UNAUTHENTICATED });
    expect(storedMetadata(platform)).toEqual([]);
    expect(platform.logger.entries.filter((e) => e.fields['code'] === 'unauthorized').map((e) => e.fields['function'] ?? e.fields['path'])).toEqual(
      expect.arrayContaining(['/api/counter/increment', 'increment_count']),
    );
  });

  it('takes a command with a session on every surface, and its events record the user id, never the email', async () => {
    const { platform, json, signIn, grpc } = setup('signed-in');
    const { cookie, userId } = await signIn();
    const rest = (await (await json('/api/counter/increment', { amount: 2 }, { cookie })).json()) as CounterView;
    expect(rest.latest_events[0]).toMatchObject({ event_type: 'incremented', user_id: userId });
    const fn = (await (await json('/api/decrement_count', { amount: 1 }, { cookie })).json()) as CounterView;
    expect(fn.count).toBe(1);
    const call = await grpc('Increment', frame(5), { cookie });
    expect(call.status).toBe(GrpcCode.OK);
    const view = fromBinary(CounterViewSchema, call.bytes.subarray(5));
    expect([view.count, view.latestEvents[0]?.userId]).toEqual([6, userId]);
    const metadata = storedMetadata(platform);
    expect(metadata).toHaveLength(3);
    for (const text of metadata) {
      expect(JSON.parse(text)).toEqual({ schema_version: 1, user_id: userId });
      expect(text).not.toContain(EMAIL);
    }
  });

  it('lets an Interact call watch without a session, and refuses its first change', async () => {
    const { grpc } = setup('signed-in');
    const watch = encodeFrame(toBinary(InteractRequestSchema, create(InteractRequestSchema, { action: { case: 'watch', value: { lastSequence: 0n } } })));
    const change = encodeFrame(
      toBinary(InteractRequestSchema, create(InteractRequestSchema, { action: { case: 'change', value: { amount: 1, operation: ChangeOperation.INCREMENT } } })),
    );
    const both = new Uint8Array([...watch, ...change]);
    const call = await grpc('Interact', both);
    expect(call.status).toBe(GrpcCode.UNAUTHENTICATED);
    expect(fromBinary(InteractResponseSchema, call.bytes.subarray(5)).view?.count).toBe(0);
  });
});

describe('COUNTER_WRITES=aal2', () => {
  it('refuses a password session (aal1) with 401: the command needs a passkey sign-in', async () => {
    const { json, signIn } = setup('aal2');
    const { cookie } = await signIn();
    const response = await json('/api/counter/increment', { amount: 1 }, { cookie });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/passkey/);
  });
});

describe('COUNTER_WRITES=anyone (the default)', () => {
  it('takes commands without a session, recording no one, and names the sender when a session comes along', async () => {
    const { platform, json, signIn } = setup('anyone');
    const anonymous = (await (await json('/api/counter/increment', { amount: 1 })).json()) as CounterView;
    expect(anonymous.latest_events[0]).not.toHaveProperty('user_id');
    // A cookie no session was issued for only means "nobody known" here.
    expect((await json('/api/counter/increment', { amount: 1 }, { cookie: `wasi_auth_dev_session=${'A'.repeat(43)}` })).status).toBe(200);
    const { cookie, userId } = await signIn();
    const signed = (await (await json('/api/counter/increment', { amount: 1 }, { cookie })).json()) as CounterView;
    expect(signed.latest_events.map((e) => e.user_id)).toEqual([userId, undefined, undefined]);
    expect(storedMetadata(platform)).toEqual(['{"schema_version":1}', '{"schema_version":1}', `{"schema_version":1,"user_id":"${userId}"}`]);
  });

  it('rejects a value COUNTER_WRITES does not know as a configuration error naming it', () => {
    expect(() => parseConfig([['COUNTER_WRITES', 'admins']])).toThrow(expect.objectContaining({ code: 'configuration', message: 'invalid configuration: COUNTER_WRITES' }));
  });
});
