/**
 * The attacks of `npm run bench -- overload` (bench/overload.ts): what one client with one machine
 * can do to a host over real loopback sockets (raw HTTP/1.1 writes, node:http2 sessions). Each
 * starts its connections and returns at once; the runner measures the host while they go on and
 * stops them at the end of the row. What the attacker saw (answers, 503s, connections the host
 * still holds open) goes in the table's notes column.
 *
 * The attacker's connections come from 127.0.0.2, the probes' and each legitimate client's from an
 * address of their own in 127.0.1.0/24 (Linux routes all of 127/8 to loopback), as separate
 * machines' would: the host tells them apart as it tells clients apart (its per-client limits
 * count per client address).
 */
import http from 'node:http';
import http2 from 'node:http2';
import { connect, type Socket } from 'node:net';
import { rapidReset } from '../../harness/rapid-reset.ts';
import { Http1Client } from '../lib/http1-client.ts';
import { openBenchSse } from '../lib/sse-clients.ts';

export interface Target {
  url: string;
  port: number;
}

export interface RunningAttack {
  /** 503 answers the attacker got (load shedding shows here). */
  rejected(): number;
  /** What the attacker saw, one short line. */
  notes(): string;
  stop(): void;
}

export interface AttackOptions {
  /** Clients of the never-reading SSE attack (5,000, the count the attack was specified with, is more than the 2-core machine bears beside the host). */
  sseClients: number;
}

export interface Attack {
  name: string;
  /** For the table: what the attacker does. */
  summary: string;
  start(target: Target, options: AttackOptions): Promise<RunningAttack>;
}

/** Where every attack connects from: another client than the probes and legitimate clients (127.0.1.0/24). */
export const ATTACKER_ADDRESS = '127.0.0.2';
/** The writers beside the SSE attacks: a second machine of the attacker's, so its writes go on past the first one's limit. */
const WRITER_ADDRESS = '127.0.0.3';

const SERVICE = '/counter.v1.CounterService';
/** A gRPC message frame holding an empty message (WatchCounter from position 0). */
const EMPTY_MESSAGE_FRAME = new Uint8Array([0, 0, 0, 0, 0]);
const INCREMENT_BODY = '{"amount":1}';

/** Counts status codes in raw HTTP/1.1 response bytes, across chunk boundaries. */
class StatusCounter {
  readonly counts = new Map<number, number>();
  #tail = '';
  feed(chunk: Buffer): void {
    const text = this.#tail + chunk.toString('latin1');
    for (const m of text.matchAll(/HTTP\/1\.1 (\d{3}) /g)) this.add(Number(m[1]));
    this.#tail = text.slice(-16);
  }
  add(status: number): void {
    this.counts.set(status, (this.counts.get(status) ?? 0) + 1);
  }
  get rejected(): number {
    return this.counts.get(503) ?? 0;
  }
  get ok(): number {
    return this.counts.get(200) ?? 0;
  }
  describe(): string {
    return [...this.counts].map(([s, n]) => `${n}×${s}`).join(' ') || 'none';
  }
}

/** Raw sockets and how many the host still holds open. */
class Sockets {
  readonly all: Socket[] = [];
  open(target: Target): Socket {
    const socket = connect({ port: target.port, host: '127.0.0.1', localAddress: ATTACKER_ADDRESS });
    socket.on('error', () => undefined);
    this.all.push(socket);
    return socket;
  }
  get stillOpen(): number {
    return this.all.filter((s) => !s.destroyed && !s.readableEnded).length;
  }
  destroy(): void {
    for (const s of this.all) s.destroy();
  }
}

function session(target: Target, settings?: http2.Settings): http2.ClientHttp2Session {
  const createConnection = () => connect({ port: target.port, host: '127.0.0.1', localAddress: ATTACKER_ADDRESS });
  const s = http2.connect(target.url, settings ? { settings, createConnection } : { createConnection });
  s.on('error', () => undefined);
  return s;
}

/** One HTTP/2 stream; counts its :status and grpc-status (headers or trailers). */
function h2Request(s: http2.ClientHttp2Session, headers: http2.OutgoingHttpHeaders, seen: StatusCounter, grpcSeen?: StatusCounter): http2.ClientHttp2Stream | undefined {
  if (s.destroyed || s.closed) return undefined;
  const stream = s.request(headers, { endStream: headers[':method'] !== 'POST' });
  stream.on('response', (h) => {
    seen.add(Number(h[':status']));
    if (grpcSeen && h['grpc-status'] !== undefined) grpcSeen.add(Number(h['grpc-status']));
  });
  if (grpcSeen) stream.on('trailers', (t) => grpcSeen.add(Number(t['grpc-status'])));
  stream.on('data', () => undefined);
  stream.on('error', () => undefined);
  return stream;
}

const grpcHeaders = (method: string, extra: Record<string, string> = {}): http2.OutgoingHttpHeaders => ({
  ':method': 'POST',
  ':path': `${SERVICE}/${method}`,
  'content-type': 'application/grpc',
  te: 'trailers',
  ...extra,
});

/** `count` gRPC calls spread over sessions of at most 50 streams; `reopen` starts a new call when one ends. */
function grpcCalls(target: Target, count: number, method: string, body: Uint8Array | undefined, extra: Record<string, string>, reopen: boolean): RunningAttack {
  const seen = new StatusCounter();
  const grpcSeen = new StatusCounter();
  const sessions = Array.from({ length: Math.ceil(count / 50) }, () => session(target));
  let stopped = false;
  const open = new Set<http2.ClientHttp2Stream>();
  const call = (i: number) => {
    const stream = h2Request(sessions[i % sessions.length]!, grpcHeaders(method, extra), seen, grpcSeen);
    if (!stream) return;
    open.add(stream);
    if (body) stream.end(body);
    stream.once('close', () => {
      open.delete(stream);
      if (reopen && !stopped) call(i);
    });
  };
  for (let i = 0; i < count; i++) call(i);
  return {
    rejected: () => seen.rejected,
    notes: () => `${open.size}/${count} calls open at the end; grpc-status ${grpcSeen.describe()}`,
    stop() {
      stopped = true;
      for (const s of sessions) s.destroy();
    },
  };
}

/** Writes `text` to every socket one byte per `everyMs`; clear the returned timer to stop. */
function trickle(sockets: readonly Socket[], text: string, everyMs: number): NodeJS.Timeout {
  let sent = 0;
  return setInterval(() => {
    if (sent >= text.length) return;
    const byte = text[sent++]!;
    for (const socket of sockets) if (!socket.destroyed) socket.write(byte);
  }, everyMs);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const ATTACKS: Attack[] = [
  {
    name: 'pipelined',
    summary: '1,000 pipelined uncached GETs in one write',
    async start(target) {
      const sockets = new Sockets();
      const seen = new StatusCounter();
      const socket = sockets.open(target);
      socket.on('data', (c: Buffer) => seen.feed(c));
      let requests = '';
      for (let i = 0; i < 1_000; i++) requests += `GET /api/counter/view?pipelined=${i} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`;
      socket.write(requests);
      return { rejected: () => seen.rejected, notes: () => `answers ${seen.describe()} of 1000`, stop: () => sockets.destroy() };
    },
  },
  {
    name: 'h2-streams',
    summary: '300 concurrent HTTP/2 streams (uncached GETs) on one connection, reopened as they end',
    async start(target) {
      const s = session(target);
      const seen = new StatusCounter();
      let stopped = false;
      const get = (i: number) => {
        const stream = h2Request(s, { ':path': `/api/counter/view?h2=${i}` }, seen);
        stream?.once('close', () => !stopped && get(i + 300));
      };
      for (let i = 0; i < 300; i++) get(i);
      return {
        rejected: () => seen.rejected,
        notes: () => `answers ${seen.describe()}`,
        stop() {
          stopped = true;
          s.destroy();
        },
      };
    },
  },
  {
    name: 'watch',
    summary: '250 WatchCounter calls',
    start: async (target) => grpcCalls(target, 250, 'WatchCounter', EMPTY_MESSAGE_FRAME, {}, false),
  },
  {
    name: 'slow-post',
    summary: '60 POST bodies trickled at 0.5 B/s',
    async start(target) {
      const sockets = new Sockets();
      const seen = new StatusCounter();
      const head = `POST /api/counter/increment HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${INCREMENT_BODY.length}\r\n\r\n`;
      const trickling = Array.from({ length: 60 }, () => {
        const socket = sockets.open(target);
        socket.on('data', (c: Buffer) => seen.feed(c));
        socket.write(head);
        return socket;
      });
      const timer = trickle(trickling, INCREMENT_BODY, 2_000);
      return {
        rejected: () => seen.rejected,
        notes: () => `${sockets.stillOpen}/60 connections open at the end; answers ${seen.describe()}`,
        stop() {
          clearInterval(timer);
          sockets.destroy();
        },
      };
    },
  },
  {
    name: 'client-stream',
    summary: '80 client-streaming gRPC calls (ApplyChanges) that never end',
    start: async (target) => grpcCalls(target, 80, 'ApplyChanges', undefined, {}, false),
  },
  {
    name: 'window-0',
    summary: '40 HTTP/2 streams (uncached GETs) at flow-control window 0',
    async start(target) {
      const s = session(target, { initialWindowSize: 0 });
      const seen = new StatusCounter();
      const streams = Array.from({ length: 40 }, (_, i) => h2Request(s, { ':path': `/api/counter/view?window0=${i}` }, seen));
      return {
        rejected: () => seen.rejected,
        notes: () => `${streams.filter((st) => st && !st.closed).length}/40 streams open at the end; heads ${seen.describe()}`,
        stop: () => s.destroy(),
      };
    },
  },
  {
    name: 'slow-heads',
    summary: '50 request heads at 1 B/s, 50 one-byte heads, 50 idle HTTP/2 connections',
    async start(target) {
      const sockets = new Sockets();
      const head = 'GET /api/counter/view HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n\r\n';
      const slow = Array.from({ length: 50 }, () => sockets.open(target));
      for (let i = 0; i < 50; i++) sockets.open(target).write('G');
      const idle = Array.from({ length: 50 }, () => session(target));
      const timer = trickle(slow, head, 1_000);
      return {
        rejected: () => 0,
        notes: () => `${sockets.stillOpen}/100 HTTP/1.1 and ${idle.filter((s) => !s.closed && !s.destroyed).length}/50 HTTP/2 connections open at the end`,
        stop() {
          clearInterval(timer);
          sockets.destroy();
          for (const s of idle) s.destroy();
        },
      };
    },
  },
  {
    name: 'sse-future',
    summary: '250 SSE clients at distinct future positions, then one POST',
    async start(target) {
      const agent = new http.Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY, localAddress: ATTACKER_ADDRESS });
      const clients = Array.from({ length: 250 }, (_, i) => openBenchSse(`${target.url}/api/counter/stream?last_sequence=${1_000 + i}`, agent));
      let opened = 0;
      for (const c of clients)
        c.opened.then(
          () => opened++,
          () => undefined,
        );
      await Promise.race([Promise.allSettled(clients.map((c) => c.opened)), sleep(5_000)]);
      const writer = new Http1Client(
        target.url,
        { method: 'POST', path: '/api/counter/increment', headers: { 'content-type': 'application/json' }, body: INCREMENT_BODY },
        10_000,
        WRITER_ADDRESS,
      );
      const status = await writer.send();
      writer.close();
      return {
        rejected: () => (status === 503 ? 1 : 0),
        notes: () => `${opened}/250 streams opened; the POST answered ${status || 'nothing'}`,
        stop() {
          for (const c of clients) c.close();
          agent.destroy();
        },
      };
    },
  },
  {
    name: 'sse-no-read',
    summary: 'SSE clients that never read (count: --sse-clients) beside a writer at ~60 writes/s',
    async start(target, options) {
      const sockets = new Sockets();
      const seen = new StatusCounter();
      let heads = 0;
      let stopped = false;
      const request = 'GET /api/counter/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n';
      // Opened in batches in the background so the row's clock starts at once; each reads its head, then never again.
      void (async () => {
        for (let i = 0; i < options.sseClients && !stopped; i += 100) {
          for (let j = i; j < Math.min(options.sseClients, i + 100); j++) {
            const socket = sockets.open(target);
            socket.write(request);
            socket.once('data', (c: Buffer) => {
              heads++;
              seen.feed(c);
              socket.pause();
            });
          }
          await sleep(50);
        }
      })();
      const writer = new Http1Client(
        target.url,
        { method: 'POST', path: '/api/counter/increment', headers: { 'content-type': 'application/json' }, body: INCREMENT_BODY },
        5_000,
        WRITER_ADDRESS,
      );
      let writes = 0;
      let busy = false;
      const timer = setInterval(() => {
        if (busy) return;
        busy = true;
        void writer.send().then((status) => {
          busy = false;
          if (status === 200) writes++;
          else seen.add(status);
        });
      }, 16);
      return {
        rejected: () => seen.rejected,
        notes: () => `${seen.ok}/${options.sseClients} streams opened (heads: ${heads}, answers ${seen.describe()}); the writer (from ${WRITER_ADDRESS}) made ${writes} writes`,
        stop() {
          stopped = true;
          clearInterval(timer);
          writer.close();
          sockets.destroy();
        },
      };
    },
  },
  {
    name: 'tiny-chunks',
    summary: 'POST bodies of 200,000 one-byte chunks (1.2 MB on the wire), one after another',
    async start(target) {
      const body = INCREMENT_BODY + ' '.repeat(200_000 - INCREMENT_BODY.length);
      const parts = [`POST /api/counter/increment HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`];
      for (const ch of body) parts.push(`1\r\n${ch}\r\n`);
      parts.push('0\r\n\r\n');
      const wire = Buffer.from(parts.join(''), 'latin1');
      const sockets = new Sockets();
      const seen = new StatusCounter();
      let stopped = false;
      const upload = () => {
        if (stopped) return;
        const socket = sockets.open(target);
        socket.on('data', (c: Buffer) => {
          seen.feed(c);
          socket.destroy();
          upload();
        });
        for (let offset = 0; offset < wire.length; offset += 65_536) socket.write(wire.subarray(offset, offset + 65_536));
      };
      upload();
      return {
        rejected: () => seen.rejected,
        notes: () => `uploads answered ${seen.describe()} (${(wire.length / 1e6).toFixed(1)} MB each)`,
        stop() {
          stopped = true;
          sockets.destroy();
        },
      };
    },
  },
  {
    name: 'rapid-reset',
    summary: 'HTTP/2 streams (uncached GETs) opened and reset at once (CVE-2023-44487) on 4 connections, a new one as each is closed',
    async start(target) {
      const attack = rapidReset({ port: target.port, from: ATTACKER_ADDRESS, lanes: 4, targets: 'uncached' });
      const { stats } = attack;
      const goaway = () =>
        Object.entries(stats.goaway)
          .map(([code, n]) => `${n}×${code}`)
          .join(' ') || 'none';
      return {
        rejected: () => 0,
        notes: () =>
          `${stats.streams} streams written on ${stats.connections} connections: ${stats.served} read, ${stats.refused} closed unread, ${stats.connections - stats.served - stats.refused} still held; GOAWAY codes ${goaway()}`,
        stop: () => attack.stop(),
      };
    },
  },
  {
    name: 'grpc-timeout',
    summary: '80 ApplyChanges calls with grpc-timeout 2S that send nothing, reopened as they end',
    start: async (target) => grpcCalls(target, 80, 'ApplyChanges', undefined, { 'grpc-timeout': '2S' }, true),
  },
];
