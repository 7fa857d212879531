/**
 * `grpc-timeout` enforced by the host from the attacker's side: calls that wait for client
 * messages end DEADLINE_EXCEEDED at the deadline and give their instance back; deadlines beyond
 * setTimeout's 32-bit range do not expire early; headers outside the spec's grammar are refused
 * before an instance is taken. The clients send `grpc-timeout` themselves and keep no deadline of
 * their own, so every ending seen here is the server's.
 */
import http2 from 'node:http2';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ChangeCounterRequestSchema, CounterViewSchema, GetCounterViewRequestSchema, InteractRequestSchema, InteractResponseSchema } from '../../src/gen/counter_pb.js';
import { collect, CounterClient, grpc, SERVICE } from '../../harness/grpc.ts';
import { startHost, type HostProcess } from '../../harness/host-process.ts';

const withTimeout = (value: string) => {
  const metadata = new grpc.Metadata();
  metadata.set('grpc-timeout', value);
  return metadata;
};

/** One raw HTTP/2 gRPC call; `ended` resolves with the status from trailers (or trailers-only headers). */
function rawCall(session: http2.ClientHttp2Session, method: string, timeout: string | undefined, body?: Uint8Array) {
  const headers: http2.OutgoingHttpHeaders = { ':method': 'POST', ':path': `/${SERVICE}/${method}`, 'content-type': 'application/grpc', te: 'trailers' };
  // As UTF-8 bytes on the wire (Node writes a header string byte per char): a fullwidth digit arrives as a client would send it.
  if (timeout !== undefined) headers['grpc-timeout'] = Buffer.from(timeout).toString('latin1');
  const stream = session.request(headers, { endStream: false });
  if (body) stream.end(body);
  /**
   * True when the status came in the only HEADERS frame, which ended the stream (Trailers-Only): a
   * head with a status but without END_STREAM is read by grpc-js as headers, and its call never ends.
   */
  let trailersOnly = false;
  // Settles with the call's status as soon as one arrives (the client may still be sending), or at close without one.
  const ended = new Promise<string | undefined>((resolve) => {
    stream.on('response', (h, flags) => {
      trailersOnly = h['grpc-status'] !== undefined && (flags & http2.constants.NGHTTP2_FLAG_END_STREAM) !== 0;
      if (h['grpc-status'] !== undefined) resolve(h['grpc-status'] as string);
    });
    stream.on('trailers', (t) => resolve(t['grpc-status'] as string | undefined));
    stream.once('close', () => resolve(undefined));
  });
  stream.on('data', () => undefined);
  stream.on('error', () => undefined);
  const closed = new Promise<number>((resolve) => stream.once('close', () => resolve(stream.rstCode ?? -1)));
  return { stream, ended, closed, trailersOnly: () => trailersOnly };
}

/**
 * How long a call the host answers at once may take before it counts as never answered: a hang
 * guard, not a bound on speed (on 2 cores at load 25-35 one answer took several seconds).
 */
const HANG_GUARD_MS = 20_000;

/** A WatchCounter request message (last_sequence 0: all fields default) as one gRPC frame. */
const EMPTY_MESSAGE_FRAME = new Uint8Array([0, 0, 0, 0, 0]);

describe('grpc-timeout enforced by the host', () => {
  let host: HostProcess;
  let client: CounterClient;
  let session: http2.ClientHttp2Session;

  beforeAll(async () => {
    // Two instances: a call still holding one after its deadline would starve the probe.
    host = await startHost({ args: ['--transport', 'both', '--instances-min', '1', '--instances-max', '2', '--shutdown-grace-ms', '300'] });
    client = new CounterClient(`127.0.0.1:${host.port}`);
  });
  afterAll(async () => {
    client?.close();
    await host?.stop();
  });
  // A connection of each test's own: one shared by all would be closed by the host's HTTP/2 idle
  // timeout (60 s) while a slow test before it holds no stream on it, failing the tests after it.
  beforeEach(() => {
    session = http2.connect(host.url);
    session.on('error', () => undefined);
  });
  afterEach(() => session?.close());

  it(
    'a client-streaming and a bidi call that send nothing end DEADLINE_EXCEEDED at 2 s and release their instances',
    async () => {
      // The channel connected first: at load 25-35 on 2 cores grpc-js's first connect alone took up
      // to 4 s, which is the client's time, not the host's deadline.
      await client.unary('GetCounterView', GetCounterViewRequestSchema, CounterViewSchema, {}, { deadline: Date.now() + HANG_GUARD_MS });
      const started = performance.now();
      const apply = client.clientStream('ApplyChanges', ChangeCounterRequestSchema, CounterViewSchema, {}, withTimeout('2S'));
      const interact = client.bidi('Interact', InteractRequestSchema, InteractResponseSchema, {}, withTimeout('2S'));
      const applied = apply.result.then(
        () => undefined,
        (error: grpc.ServiceError) => ({ code: error.code, at: performance.now() - started }),
      );
      const interacted = collect(interact).status.then((s) => ({ code: s.code, at: performance.now() - started }));
      // A hang guard of the test's own (no client deadline: it would send a grpc-timeout of its
      // own): calls the host has not ended by then are cancelled and reported, so the failure says
      // what happened and the tests after it keep their connection.
      const guard = new Promise<{ code: string; at: number }>((resolve) =>
        setTimeout(() => {
          apply.call.cancel();
          interact.cancel();
          // The host's last lines say whether the calls reached it and whether its deadline fired.
          const tail = JSON.stringify(host.logs().slice(-12));
          resolve({ code: `no status from the host within ${HANG_GUARD_MS} ms; host log: ${tail}`, at: Number.POSITIVE_INFINITY });
        }, HANG_GUARD_MS).unref(),
      );
      const [a, b] = await Promise.race([Promise.all([applied, interacted]), guard.then((g) => [g, g] as const)]);
      for (const ended of [a, b]) {
        expect(ended?.code).toBe(grpc.status.DEADLINE_EXCEEDED);
        expect(ended!.at).toBeGreaterThan(1_900);
        // ~2.1 s on a quiet machine. The bound tells a 2 s deadline from a wrong unit (2 M: 120 s),
        // not how fast the host is: at load 25-35 the calls reached the host and its timer fired
        // seconds late (event loops stalled 2.4 s), so it is five times the deadline.
        expect(ended!.at).toBeLessThan(10_000);
      }
      // Both instances are back: a probe with no deadline of its own is answered (an instance
      // still held would leave it waiting until its client's guard, however long that is).
      const view = await client.unary('GetCounterView', GetCounterViewRequestSchema, CounterViewSchema, {}, { deadline: Date.now() + HANG_GUARD_MS });
      expect(view.count).toBeTypeOf('number');
      expect(host.logs().some((l) => l['code'] === 'grpc_deadline_exceeded' && l['level'] === 'info')).toBe(true);
    },
    4 * HANG_GUARD_MS,
  );

  it.each(['600H', '2147484S'])(
    'a deadline of %s (beyond 2^31-1 ms) has not expired after 3 s',
    async (timeout) => {
      const watch = rawCall(session, 'WatchCounter', timeout, EMPTY_MESSAGE_FRAME);
      const apply = rawCall(session, 'ApplyChanges', timeout);
      const early = Symbol('still open');
      const first = await Promise.race([watch.ended, apply.ended, new Promise((r) => setTimeout(() => r(early), 3_000))]);
      expect(first).toBe(early);
      watch.stream.close(http2.constants.NGHTTP2_CANCEL);
      apply.stream.close(http2.constants.NGHTTP2_CANCEL);
      await Promise.all([watch.ended, apply.ended]);
    },
    2 * HANG_GUARD_MS,
  );

  it(
    'a call still waiting for an instance at its deadline ends DEADLINE_EXCEEDED, trailers-only',
    async () => {
      // Both instances held by calls without a deadline: the call below waits in the pool's queue.
      const holders = [rawCall(session, 'ApplyChanges', undefined), rawCall(session, 'ApplyChanges', undefined)];
      try {
        const started = performance.now();
        const queued = rawCall(session, 'ApplyChanges', '1S');
        // A grpc-js call queued the same way: it ends only on a Trailers-Only answer that ends the stream.
        const interact = client.bidi('Interact', InteractRequestSchema, InteractResponseSchema, {}, withTimeout('1S'));
        const interacted = collect(interact).status.then((s) => s.code);
        const guard = <T>(answer: Promise<T>) => Promise.race([answer, new Promise<string>((r) => setTimeout(() => r('no answer within the hang guard'), HANG_GUARD_MS).unref())]);
        try {
          const status = await guard(queued.ended);
          expect(status).toBe(String(grpc.status.DEADLINE_EXCEEDED));
          expect(queued.trailersOnly()).toBe(true);
          expect(performance.now() - started).toBeGreaterThan(900);
          expect(await guard(interacted)).toBe(grpc.status.DEADLINE_EXCEEDED);
          // The request was still open: the host resets it with NO_ERROR (RFC 9113 §8.1), so it closes here too.
          expect(await guard(queued.closed)).toBe(http2.constants.NGHTTP2_NO_ERROR);
        } finally {
          interact.cancel();
        }
      } finally {
        for (const h of holders) h.stream.close(http2.constants.NGHTTP2_CANCEL);
        await Promise.all(holders.map((h) => h.ended));
      }
    },
    2 * HANG_GUARD_MS,
  );

  it(
    'a malformed grpc-timeout is refused INVALID_ARGUMENT even while every instance is busy',
    async () => {
      // Both instances held by calls without a deadline: an answer can only come from the host.
      const holders = [rawCall(session, 'ApplyChanges', undefined), rawCall(session, 'ApplyChanges', undefined)];
      try {
        for (const timeout of ['１S', '123456789S', '5X', '']) {
          const { ended, trailersOnly } = rawCall(session, 'Increment', timeout, EMPTY_MESSAGE_FRAME);
          const status = await Promise.race([ended, new Promise((r) => setTimeout(() => r('no answer within the hang guard'), HANG_GUARD_MS))]);
          expect([timeout, status, trailersOnly()]).toEqual([timeout, String(grpc.status.INVALID_ARGUMENT), true]);
        }
      } finally {
        for (const h of holders) h.stream.close(http2.constants.NGHTTP2_CANCEL);
        await Promise.all(holders.map((h) => h.ended));
      }
      expect(host.logs().filter((l) => l['code'] === 'grpc_timeout_malformed')).toHaveLength(4);
    },
    5 * HANG_GUARD_MS,
  );
});
