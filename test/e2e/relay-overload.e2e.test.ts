/**
 * The stream relay from an attacker's side, against a real host process over real sockets:
 * clients at positions beyond the store's head, clients that never read beside a writer, and
 * HTTP/2 clients that leave before the host answered. The host's own counts are read from its
 * metrics listener; its memory from /proc.
 */
import http2 from 'node:http2';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { residentBytes } from '../../bench/lib/proc-memory.ts';
import { freePort, startHost, type HostProcess } from '../../harness/host-process.ts';
import { scrape } from '../support/prometheus.ts';
import { counterFrame, openSse, type SseClient } from '../../harness/sse.ts';
import { openNonReader } from '../support/non-reading-sse.ts';

const MiB = 1_048_576;
const STREAM = '/api/counter/stream';

interface Started {
  host: HostProcess;
  metric(name: string, labels?: Record<string, string>): Promise<number>;
  rss(): number;
  increment(): Promise<number>;
}

const running: Array<() => void> = [];
afterEach(async () => {
  for (const stop of running.splice(0)) stop();
});

async function start(args: string[] = []): Promise<Started> {
  const metricsPort = await freePort();
  // Every client here connects from 127.0.0.1: a thousand streams of one address are the load these
  // tests measure the relay under, so the per-client limit (128 by default) is off.
  const host = await startHost({ args: ['--metrics-port', String(metricsPort), '--client-exchange-limit', '0', ...args] });
  running.push(() => void host.stop());
  const metricsUrl = `http://127.0.0.1:${metricsPort}`;
  return {
    host,
    metric: async (name, labels) => (await scrape(metricsUrl)).value(name, labels) ?? Number.NaN,
    rss: () => residentBytes(host.child.pid!),
    async increment() {
      const response = await fetch(`${host.url}/api/counter/increment`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"amount":1}' });
      expect(response.status).toBe(200);
      return ((await response.json()) as { last_sequence: number }).last_sequence;
    },
  };
}

/** Waits until the relay sends no more polls and no instance is busy (clients joining settled). */
async function settled(s: Started): Promise<void> {
  await expect
    .poll(
      async () => {
        const polls = await s.metric('host_relay_polls_total');
        await new Promise((resolve) => setTimeout(resolve, 300));
        return (await s.metric('host_relay_polls_total')) === polls && (await s.metric('host_guest_instances', { state: 'busy' })) === 0;
      },
      { timeout: 15_000, interval: 100 },
    )
    .toBe(true);
}

/** An HTTP/2 session with `count` SSE streams that are never read (their flow-control windows fill). */
async function openNonReadingSession(url: string, count: number): Promise<http2.ClientHttp2Session> {
  const session = http2.connect(url);
  session.on('error', () => undefined);
  await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<void>((resolve, reject) => {
          const stream = session.request({ ':path': STREAM, accept: 'text/event-stream' });
          stream.on('error', () => undefined);
          stream.once('response', () => {
            stream.pause();
            resolve();
          });
          stream.once('close', () => reject(new Error(`stream closed before its head (RST_STREAM ${stream.rstCode})`)));
        }),
    ),
  );
  return session;
}

/** Runs `fn` over `items`, `width` at a time. */
async function inBatches<T, R>(items: T[], width: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += width) out.push(...(await Promise.all(items.slice(i, i + width).map(fn))));
  return out;
}

describe('stream relay under attack', () => {
  it('250 clients at distinct positions beyond the head cost one guest poll for a write, and get it', { timeout: 90_000 }, async () => {
    const s = await start();
    const head = await s.increment();
    // Each claims a state the store never had: without clamping, each is a position of its own.
    const positions = Array.from({ length: 250 }, (_, i) => head + 1_000 + i * 7);
    const streams = await inBatches(positions, 25, async (position) => {
      const sse = await openSse(`${s.host.url}${STREAM}?last_sequence=${position}`);
      await sse.waitFor((f) => f.retry === '1000', 10_000);
      return sse;
    });
    running.push(() => {
      for (const sse of streams) sse.close();
    });
    await expect.poll(() => s.metric('host_sse_streams_open'), { timeout: 10_000 }).toBe(250);
    await settled(s);
    const pollsBefore = await s.metric('host_relay_polls_total');
    const rssBefore = s.rss();

    const written = await s.increment();
    await Promise.all(streams.map((sse) => sse.waitFor(counterFrame(written), 10_000)));
    await settled(s);
    // One poll answers the write for everyone (a second may come from a wake racing the first).
    expect((await s.metric('host_relay_polls_total')) - pollsBefore).toBeLessThanOrEqual(2);
    expect(s.rss() - rssBefore).toBeLessThan(150 * MiB);
    // Clamped at the head: the catch-up was the state the store has, then the write, in order.
    for (const sse of streams) expect(sse.frames.filter((f) => f.event === 'counter').map((f) => Number(f.id))).toEqual([head, written]);
  });

  it('a thousand clients that never read cost the host a bounded number of bytes and polls, and a reader beside them gets each write promptly', async () => {
    // Each opening runs the guest once; 50 openings on one HTTP/2 session at a time exceed the
    // default wait queue of a host whose budget holds few instances, and shedding them is
    // test/admission/'s subject: here every opening waits its turn.
    const s = await start(['--admission-queue', '2000']);
    const probe: SseClient = await openSse(`${s.host.url}${STREAM}`);
    running.push(() => probe.close());
    await probe.waitFor((f) => f.retry === '1000', 10_000);
    // HTTP/2 streams whose windows fill after 64 KiB, and HTTP/1.1 sockets that fill the kernel's buffers.
    // One session at a time, so the opening does not compete with itself on a shared machine.
    const sessions = await inBatches(
      Array.from({ length: 16 }, () => 50),
      1,
      (count) => openNonReadingSession(s.host.url, count),
    );
    running.push(() => {
      for (const session of sessions) session.destroy();
    });
    const sockets = await inBatches(
      Array.from({ length: 200 }, () => s.host.port),
      25,
      (port) => openNonReader(port),
    );
    running.push(() => {
      for (const socket of sockets) socket.destroy();
    });
    const clients = 1 + 16 * 50 + 200;
    await expect.poll(() => s.metric('host_sse_streams_open'), { timeout: 10_000 }).toBe(clients);
    await settled(s);
    const rssBefore = s.rss();
    const pollsBefore = await s.metric('host_relay_polls_total');
    const started = performance.now();

    // Four writers, 200 writes, each waiting for the reader to see it.
    const delays: number[] = [];
    let writes = 0;
    const writer = async () => {
      while (writes < 200) {
        writes++;
        const sequence = await s.increment();
        const sent = performance.now();
        await probe.waitFor(counterFrame(sequence), 10_000);
        delays.push(performance.now() - sent);
      }
    };
    await Promise.all([writer(), writer(), writer(), writer()]);
    const seconds = (performance.now() - started) / 1000;

    // The reader saw each write (or a newer state) within two seconds (generous on two shared cores).
    expect(Math.max(...delays)).toBeLessThan(2_000);
    // The relay writes at most 5,000 frames a second to its clients: with 1,001 of them, a poll
    // (and a frame to each) about every 200 ms, whatever the write rate; one poll per write before.
    const polls = (await s.metric('host_relay_polls_total')) - pollsBefore;
    expect(polls).toBeLessThanOrEqual(Math.ceil((seconds * 5_000) / clients) + 2);
    // What the non-readers were sent stays small, and what they do not take is not queued.
    const grown = s.rss() - rssBefore;
    expect(grown).toBeLessThan(100 * MiB);
    expect(await s.metric('host_relay_held_bytes')).toBeLessThan(clients * 4_096);
  }, 180_000);

  it('notices at once that 50 HTTP/2 streams reset before the guest answered them (relay on)', async () => {
    const s = await start();
    await departingStreams(s.host.port, 50);
    // Once the guest has answered every request the client left, none of them is held.
    await expect.poll(() => s.metric('host_guest_waiting_requests'), { timeout: 20_000 }).toBe(0);
    await expect.poll(() => s.metric('host_guest_instances', { state: 'busy' }), { timeout: 20_000 }).toBe(0);
    await expect.poll(() => s.metric('host_sse_streams_open'), { timeout: 1_000, interval: 100 }).toBe(0);
  }, 60_000);

  it('notices at once that 50 HTTP/2 streams reset before the guest answered them (guest-held streams)', async () => {
    const s = await start(['--stream-relay', 'off']);
    await departingStreams(s.host.port, 50);
    // Each stream holds an instance while it is open: every one is released.
    await expect.poll(() => s.metric('host_guest_waiting_requests'), { timeout: 20_000 }).toBe(0);
    await expect.poll(() => s.metric('host_guest_instances', { state: 'busy' }), { timeout: 10_000, interval: 100 }).toBe(0);
  }, 60_000);
});

/** An HTTP/2 frame (RFC 9113 §4.1). */
function h2Frame(type: number, flags: number, streamId: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(9);
  head.writeUIntBE(payload.length, 0, 3);
  head[3] = type;
  head[4] = flags;
  head.writeUInt32BE(streamId, 5);
  return Buffer.concat([head, payload]);
}

/**
 * Opens `count` SSE streams on a raw HTTP/2 connection and, in the same write, resets each
 * (RST_STREAM CANCEL) and closes the connection: the host sees every request, and every client
 * gone, before the guest answered any.
 */
async function departingStreams(port: number, count: number): Promise<void> {
  // HPACK (RFC 7541): :method GET and :scheme http from the static table, :path and :authority as literals.
  const literal = (index: number, value: string) => Buffer.concat([Buffer.from([index, value.length]), Buffer.from(value)]);
  const headers = Buffer.concat([Buffer.from([0x82, 0x86]), literal(0x04, STREAM), literal(0x01, 'localhost')]);
  const cancel = Buffer.alloc(4);
  cancel.writeUInt32BE(http2.constants.NGHTTP2_CANCEL);
  const ids = Array.from({ length: count }, (_, i) => 1 + 2 * i);
  const bytes = Buffer.concat([
    Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'), // the connection preface
    h2Frame(0x4, 0, 0, Buffer.alloc(0)), // SETTINGS
    ...ids.map((id) => h2Frame(0x1, 0x5, id, headers)), // HEADERS, END_STREAM | END_HEADERS
    ...ids.map((id) => h2Frame(0x3, 0, id, cancel)), // RST_STREAM
  ]);
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  await new Promise((resolve) => socket.once('connect', resolve));
  await new Promise((resolve) => socket.write(bytes, resolve));
  socket.destroy();
}
