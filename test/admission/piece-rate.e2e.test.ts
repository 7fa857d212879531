/**
 * The attack: one client sends request bodies as one-byte pieces (HTTP/1.1 chunks, HTTP/2 DATA
 * frames) as fast as it can, one body after another. Node's parsers call into JavaScript once per
 * piece, so without a bound the host's CPU goes to the attacker's pieces: a 1.2 MB body of 200,000
 * chunks cost ~10 CPU-s and legitimate traffic beside it fell to a fifth (`npm run bench -- overload`,
 * tiny-chunks). With --body-piece-rate, the client's bodies are read at its budget of pieces a
 * second: the host's CPU over the attack stays under a bound derived from the budget, another
 * client is answered meanwhile, and every body still arrives whole (its JSON is at the
 * end; the count moves by one per upload).
 *
 * A client that closes its paused connections and opens new ones gets them read only once it has
 * repaid what it owes.
 *
 * The attackers connect from 127.0.0.2-4, one address per test, the legitimate client from
 * 127.0.0.1 (Linux routes all of 127/8 to loopback).
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processCpuMs } from '../../bench/lib/proc-cpu.ts';
import { startHost, type HostProcess } from '../../harness/host-process.ts';
import { paddedIncrement } from '../support/padded-increment.ts';
import { scrape } from '../support/prometheus.ts';
import { grpcIncrementHead, RawHttp2Client } from '../support/raw-http2.ts';

const RATE = 4096;
const ATTACKER = '127.0.0.2';
/** The attackers of the later tests: each test's debts and exchanges in flight its own. */
const CYCLING_ATTACKER = '127.0.0.3';
const HTTP2_ATTACKER = '127.0.0.4';
/** How long the attacker sends, and the host's CPU is measured. */
const ATTACK_MS = 4_000;
/** Pieces of each body: about five seconds of the budget, so bodies end while the test waits. */
const PIECES = 20_000;
/**
 * CPU-µs per piece allowed for in the bound: measured 1.5-2.5 µs per one-byte chunk (host/config.ts,
 * docs/security.md), with room for a machine shared with other work.
 */
const COST_PER_PIECE_US = 5;
/** CPU-ms of slack over the legitimate client's own, measured without the attacker. */
const SLACK_MS = 300;
/**
 * Pieces the host may take past the budget before a pause holds: HTTP/1.1, the rest of one socket
 * read (64 KiB of six-byte chunks); HTTP/2, the stream's flow-control window (65,535 bytes).
 */
const OVERSHOOT = { http1: 11_000, http2: 65_536 } as const;
/** Connections the cycling attacker opens at once. */
const LANES = 5;

/**
 * The bound of the host's CPU-ms over the attack: the budget's pieces and what overshoots it (once
 * per connection read before the client owed), beside `baselineMs` (the legitimate client's).
 */
function cpuBoundMs(protocol: keyof typeof OVERSHOOT, baselineMs: number, connections = 1): number {
  const pieces = RATE * (1 + ATTACK_MS / 1000) + OVERSHOOT[protocol] * connections;
  return (pieces * COST_PER_PIECE_US) / 1000 + baselineMs + SLACK_MS;
}

/** A JSON increment padded with leading spaces to `size` bytes: only a body read to its end parses. */
function incrementBody(size: number): string {
  const json = '{"amount":1}';
  return ' '.repeat(size - json.length) + json;
}

/** A chunked POST of `body` in one-byte chunks, as it goes on the wire. */
function oneByteChunks(body: string): string {
  const parts = ['POST /api/counter/increment HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n'];
  for (const ch of body) parts.push(`1\r\n${ch}\r\n`);
  parts.push('0\r\n\r\n');
  return parts.join('');
}

/** One chunked POST of `body` in one-byte chunks from `from`, written at once; resolves with the status line. */
function uploadOneByteChunks(port: number, from: string, body: string): Promise<string> {
  const wire = oneByteChunks(body);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress: from });
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      if (/\r\n\r\n\{.*\}$/.test(text)) {
        socket.destroy();
        resolve(text.split('\r\n')[0]!);
      }
    });
    socket.once('error', reject);
    socket.once('close', () => reject(new Error(`closed; received ${JSON.stringify(text.slice(0, 200))}`)));
    socket.write(wire, 'latin1');
  });
}

interface AttackResult {
  cpuMs: number;
  /** Latencies of the legitimate client's views during the attack. */
  viewsMs: number[];
  uploads: number;
}

describe('body pieces per second per client', () => {
  let host: HostProcess;
  let metricsUrl: string;
  /** The host's CPU-ms over ATTACK_MS with the legitimate client alone. */
  let baselineMs: number;

  const measured: Record<string, unknown> = {};

  beforeAll(async () => {
    host = await startHost({ args: ['--transport', 'both', '--response-cache', 'off', '--body-piece-rate', String(RATE), '--metrics-port', '0'] });
    metricsUrl = `http://127.0.0.1:${host.logs().find((l) => l.code === 'metrics_listening')?.port}`;
    baselineMs = (await attack()).cpuMs;
    measured.baselineMs = baselineMs;
    // The config's hook guard: at load 25-35 the host's start alone took past 30 s.
  });
  afterAll(async () => {
    console.log(`piece-rate attack: ${JSON.stringify(measured)}`);
    await host?.stop();
  });

  /**
   * The legitimate client was answered during the attack (each view 200, attack() checks). How
   * fast is not asserted: at load 24 on 2 cores a view took 8.2 s while the host spent 400 CPU-ms
   * in the whole attack, under its bound of 820: the wait was the machine's scheduler, not the
   * attacker. The host's CPU bound is what the defence changes; latencies are in `measured` and
   * in `npm run bench -- overload` (tiny-chunks).
   */
  const expectServed = (result: AttackResult) => expect(result.viewsMs.length).toBeGreaterThanOrEqual(1);

  const count = async () => ((await (await fetch(`${host.url}/api/counter/view?fresh=${performance.now()}`)).json()) as { count: number }).count;

  /** Runs `upload` back to back for ATTACK_MS while a legitimate client asks for views; waits for the last upload. */
  async function attack(upload?: () => Promise<void>): Promise<AttackResult> {
    const pid = host.child.pid!;
    const end = performance.now() + ATTACK_MS;
    let uploads = 0;
    const attacker = (async () => {
      while (upload && performance.now() < end) {
        await upload();
        uploads++;
      }
    })();
    const viewsMs: number[] = [];
    const cpuBefore = processCpuMs(pid);
    for (let i = 0; performance.now() < end; i++) {
      const started = performance.now();
      const answer = await fetch(`${host.url}/api/counter/view?legit=${i}`);
      expect(answer.status).toBe(200);
      await answer.arrayBuffer();
      viewsMs.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, 100));
    }
    const cpuMs = processCpuMs(pid) - cpuBefore;
    await attacker;
    return { cpuMs, viewsMs, uploads };
  }

  it('HTTP/1.1: one-byte chunks are read at the budget; the host stays free, every body arrives whole', async () => {
    const before = await count();
    const body = incrementBody(PIECES);
    const result = await attack(async () => {
      expect(await uploadOneByteChunks(host.port, ATTACKER, body)).toMatch(/^HTTP\/1\.1 200 /);
    });
    measured.http1 = { ...result, viewsMs: Math.max(...result.viewsMs), boundMs: cpuBoundMs('http1', baselineMs) };
    expect(result.cpuMs).toBeLessThan(cpuBoundMs('http1', baselineMs));
    expectServed(result);
    // Each upload's JSON is at its end: the count moved once per upload, so every body was read whole.
    expect(await count()).toBe(before + result.uploads);
    expect(await (await scrape(metricsUrl)).value('host_body_piece_rate_throttled_total')).toBeGreaterThanOrEqual(1);
    const lines = host.logs().filter((l) => l.code === 'body_piece_rate');
    expect(lines.length).toBeGreaterThanOrEqual(1);
    expect(lines[0]).toMatchObject({ level: 'warn', client: ATTACKER, rate: RATE });
  }, 60_000);

  it('HTTP/1.1: a client that owes pieces gets its new connections read only once it has repaid', async () => {
    const wire = Buffer.from(oneByteChunks(incrementBody(PIECES)), 'latin1');
    // Each round: LANES new connections, each writing a whole body, cut after 100 ms.
    const result = await attack(async () => {
      const sockets = Array.from({ length: LANES }, () => {
        const socket = net.connect({ port: host.port, host: '127.0.0.1', localAddress: CYCLING_ATTACKER });
        socket.on('error', () => undefined);
        socket.write(wire);
        return socket;
      });
      await new Promise((r) => setTimeout(r, 100));
      for (const socket of sockets) socket.destroy();
    });
    const bound = cpuBoundMs('http1', baselineMs, LANES);
    measured.http1Cycling = { ...result, viewsMs: Math.max(...result.viewsMs), boundMs: bound };
    expect(result.cpuMs).toBeLessThan(bound);
    expectServed(result);
  }, 60_000);
  it('HTTP/2: one-byte DATA frames of gRPC calls are read at the budget; every message arrives whole', async () => {
    const before = await count();
    const client = await RawHttp2Client.connect(host.port, HTTP2_ATTACKER);
    const message = paddedIncrement(PIECES - 5);
    let stream = 1;
    try {
      const result = await attack(async () => {
        const id = stream;
        stream += 2;
        client.headers(id, grpcIncrementHead(host.port));
        await client.data(id, message, 1);
        expect(await client.ended(id)).toEqual({});
      });
      measured.http2 = { ...result, viewsMs: Math.max(...result.viewsMs), boundMs: cpuBoundMs('http2', baselineMs) };
      expect(result.cpuMs).toBeLessThan(cpuBoundMs('http2', baselineMs));
      expectServed(result);
      expect(await count()).toBe(before + result.uploads);
    } finally {
      client.close();
    }
  }, 60_000);
});
