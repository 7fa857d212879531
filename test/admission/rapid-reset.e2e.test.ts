/**
 * The attack (CVE-2023-44487, "rapid reset"): one client opens HTTP/2 streams and resets each in
 * the same write, as fast as its connections take them, opening a new connection as each is
 * closed (nghttp2, Node's HTTP/2, ends a connection after about 1,000 resets). Before the defences
 * the host started guest exchanges for streams already reset (28,256 in 10 s), grew its pool to
 * its limit, took more than a core and kept another client's views waiting past a second, and its
 * memory went from 224 to 753 MiB and stayed there.
 *
 * What is asserted, over real sockets against a real host process:
 * - no guest exchange starts for the attacker's streams (the host's guest runs grow by the other
 *   client's probes only) and a stream reset while its exchange runs gives its instance back;
 * - the attacker pays for its resets: its connections are closed and its new ones wait unread (some
 *   never read at all), logged as `client_reset_rate` and counted; a connection ended by a protocol
 *   error costs as ten resets;
 * - another client is served meanwhile (probes as overload.ts judges them), and its new HTTP/2
 *   connections are read at once;
 * - behind a trusted proxy only the resetting client's streams are refused: the proxy's connection
 *   and its other clients go on;
 * - the host's memory stays under its budget and comes back near its start after the attack.
 *
 * Each client connects from a loopback address of its own (Linux routes all of 127/8 to loopback):
 * the rapid-reset attacker from 127.0.0.2 in a process of its own (harness/rapid-reset.ts), the
 * client making protocol errors from 127.0.0.3, the trusted proxy from 127.0.0.4, the other client
 * from 127.0.0.1.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { frame, FrameType, PREFACE, readFrames } from '../../harness/http2-frames.ts';
import { ROOT, startHost, type HostProcess } from '../../harness/host-process.ts';
import type { RapidResetStats } from '../../harness/rapid-reset.ts';
import { scrape, type Scrape } from '../support/prometheus.ts';
import { grpcIncrementHead, RawHttp2Client } from '../support/raw-http2.ts';
import { admissionLimits, expectResponsive, probeLoop, residentMiB } from './overload.ts';

/** Resets a second per client: small, so that a protocol error (ten resets) is a second's budget. */
const RATE = 10;
const ATTACKER = '127.0.0.2';
const ERRING = '127.0.0.3';
const PROXY = '127.0.0.4';
const ATTACK_MS = 6_000;
/** Connections the attacker keeps open at once, each replaced as it closes. */
const LANES = 4;
/** RST_STREAM / GOAWAY ENHANCE_YOUR_CALM (RFC 9113 §7). */
const ENHANCE_YOUR_CALM = 0xb;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The attacker in a child process, so its loop neither slows this one's probes nor is slowed by them. */
async function startAttacker(port: number): Promise<{ child: ChildProcess; stop(): Promise<RapidResetStats> }> {
  const child = spawn(process.execPath, [join(ROOT, 'harness', 'rapid-reset.ts'), String(port), ATTACKER, String(LANES), 'uncached'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  const next = () => new Promise<string>((resolve) => lines.once('line', resolve));
  if ((await next()) !== 'started') throw new Error('the attacker did not start');
  return {
    child,
    async stop() {
      const seen = next();
      child.stdin!.end();
      return JSON.parse(await seen) as RapidResetStats;
    },
  };
}

/**
 * A raw HTTP/2 connection from `from` that sends the preface, its SETTINGS and then `after`;
 * `served` resolves with the milliseconds until the server's SETTINGS came (the server read it),
 * or undefined if the connection closed first.
 */
function h2Connection(port: number, from: string, after: Buffer = Buffer.alloc(0)): { socket: net.Socket; served: Promise<number | undefined> } {
  const started = performance.now();
  const socket = net.connect({ port, host: '127.0.0.1', localAddress: from });
  socket.on('error', () => undefined);
  socket.once('connect', () => socket.write(Buffer.concat([PREFACE, frame(FrameType.Settings, 0, 0), after])));
  const served = new Promise<number | undefined>((resolve) => {
    let received: Buffer<ArrayBufferLike> = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      received = readFrames(Buffer.concat([received, chunk]), (type) => {
        if (type === FrameType.Settings) resolve(performance.now() - started);
      });
    });
    socket.once('close', () => resolve(undefined));
  });
  return { socket, served };
}

describe('HTTP/2 streams reset at once (rapid reset), client by client', () => {
  let host: HostProcess;
  let metricsUrl: string;
  let attacker: ChildProcess | undefined;
  const measured: Record<string, unknown> = {};

  beforeAll(async () => {
    host = await startHost({
      args: [
        ...['--transport', 'both', '--metrics-port', '0', '--client-reset-rate', String(RATE)],
        // Idle instances leave within seconds, so the memory that comes back is seen in the test;
        // no maintenance pass, so that the guest's runs are the requests' alone.
        ...['--instance-idle-seconds', '2', '--maintenance-interval', '0', '--trusted-proxies', `${PROXY}/32`],
      ],
    });
    metricsUrl = `http://127.0.0.1:${host.logs().find((l) => l.code === 'metrics_listening')?.port}`;
  });
  afterAll(async () => {
    console.log(`rapid-reset: ${JSON.stringify(measured)}`);
    attacker?.kill('SIGKILL');
    await host?.kill();
  });

  const grown = (before: Scrape, after: Scrape, name: string, labels?: Record<string, string>) => (after.value(name, labels) ?? 0) - (before.value(name, labels) ?? 0);

  it('none of the streams starts guest work, the attacker waits for its connections, another client is served and the memory comes back', async () => {
    const budget = admissionLimits(host).memory_budget_mib;
    const before = await scrape(metricsUrl);
    const rssStart = residentMiB(host);
    let rssPeak = rssStart;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, residentMiB(host))), 250);
    const attack = await startAttacker(host.port);
    attacker = attack.child;
    let n = 0;
    const probes = probeLoop(host.port, () => `/api/counter/view?probe=${n++}`);
    await sleep(ATTACK_MS);
    const probed = await probes.stop();
    const seen = await attack.stop();
    attacker = undefined;
    clearInterval(sampler);
    const after = await scrape(metricsUrl);
    const grew = (name: string, labels?: Record<string, string>) => grown(before, after, name, labels);
    Object.assign(measured, {
      attacker: { ...seen, acceptedAfterMs: seen.acceptedAfterMs.slice(0, 12) },
      probes: probed.map((p) => (typeof p === 'string' ? p : Math.round(p.ms))),
      guestRuns: grew('host_guest_runs_total'),
      resets: grew('host_http2_streams_reset_total'),
      throttled: ['held', 'cut', 'refused'].map((action) => grew('host_client_reset_rate_throttled_total', { action })),
      rss: { start: rssStart, peak: rssPeak, budget },
    });

    // The other client is served all along.
    expectResponsive(probed);
    // No guest exchange for a reset stream: the guest ran the probes (each an uncached view) and
    // nothing else. Without the defence it ran thousands of the attacker's streams.
    expect(grew('host_guest_runs_total')).toBeLessThanOrEqual(probed.length);
    // The attacker reset far more streams than its budget and paid for them: its connections were
    // closed (GOAWAY ENHANCE_YOUR_CALM) and its new ones held unread, some never read at all.
    expect(grew('host_http2_streams_reset_total')).toBeGreaterThan(RATE);
    expect(grew('host_client_reset_rate_throttled_total', { action: 'cut' })).toBeGreaterThanOrEqual(1);
    expect(grew('host_client_reset_rate_throttled_total', { action: 'held' })).toBeGreaterThanOrEqual(1);
    expect(seen.goaway[String(ENHANCE_YOUR_CALM)]).toBeGreaterThanOrEqual(1);
    expect(seen.connections - seen.served).toBeGreaterThanOrEqual(1);
    const logged = host.logs().filter((l) => l.code === 'client_reset_rate' && l.client === ATTACKER);
    expect(logged.length).toBeGreaterThanOrEqual(1);
    expect(logged[0]).toMatchObject({ level: 'warn', rate: RATE });

    // The memory: under the budget during the attack, and back near its start after it (idle
    // instances retired after 2 s, their memory collected a second later).
    expect(rssPeak).toBeLessThan(budget);
    let rssAfter = residentMiB(host);
    for (let waited = 0; rssAfter > rssStart + 64 && waited < 15_000; waited += 500) {
      await sleep(500);
      rssAfter = residentMiB(host);
    }
    measured.rss = { ...(measured.rss as object), after: rssAfter };
    expect(rssAfter).toBeLessThanOrEqual(rssStart + 64);
  }, 60_000);

  it('a stream reset while the guest runs its exchange is cancelled: the instance comes back', async () => {
    const metric = async () => (await scrape(metricsUrl)).value('host_guest_instances', { state: 'busy' });
    const client = await RawHttp2Client.connect(host.port);
    try {
      // A gRPC call streams its body to the guest, which waits for it holding its instance.
      client.headers(1, grpcIncrementHead(host.port));
      for (let waited = 0; (await metric()) !== 1; waited += 100) {
        expect(waited).toBeLessThan(10_000);
        await sleep(100);
      }
      const resetAt = performance.now();
      client.reset(1);
      for (let waited = 0; (await metric()) !== 0; waited += 100) {
        expect(waited).toBeLessThan(10_000);
        await sleep(100);
      }
      measured.runningResetFreedMs = Math.round(performance.now() - resetAt);
      // The client's other streams go on: its connection was not cut for one reset.
      expect(client.goaway).toBe(false);
    } finally {
      client.close();
    }
  }, 30_000);

  it("connections ended by protocol errors cost their client: its next connection waits, another client's is read at once", async () => {
    const before = await scrape(metricsUrl);
    // DATA on stream 0 is a connection error (RFC 9113 §6.1): nghttp2 answers GOAWAY PROTOCOL_ERROR.
    // Each costs ten resets, a second of this client's budget: from the second on, it owes.
    const invalid = frame(FrameType.Data, 0, 0, Buffer.from('x'));
    for (let i = 0; i < 3; i++) {
      const erring = h2Connection(host.port, ERRING, invalid);
      await new Promise((resolve) => erring.socket.once('close', resolve));
    }
    const next = h2Connection(host.port, ERRING);
    const other = h2Connection(host.port, '127.0.0.1');
    try {
      const [nextMs, otherMs] = await Promise.all([next.served, other.served]);
      const after = await scrape(metricsUrl);
      measured.protocolErrors = { nextMs, otherMs, errors: grown(before, after, 'host_http2_protocol_errors_total') };
      // Without the defence the erring client's next connection was read as fast as the other's.
      expect(nextMs ?? Infinity).toBeGreaterThanOrEqual(500);
      expect(otherMs).toBeLessThan(1_000);
      expect(grown(before, after, 'host_http2_protocol_errors_total')).toBeGreaterThanOrEqual(2);
      expect(grown(before, after, 'host_client_reset_rate_throttled_total', { action: 'held' })).toBeGreaterThanOrEqual(1);
    } finally {
      next.socket.destroy();
      other.socket.destroy();
    }
  }, 30_000);

  it("behind a trusted proxy, only the resetting client's streams are refused; the proxy's connection and its other clients go on", async () => {
    const proxy = await RawHttp2Client.connect(host.port, PROXY);
    const view = (client: string): Array<[string, string]> => [
      [':method', 'GET'],
      [':scheme', 'http'],
      [':path', `/api/counter/view?via=${client}-${performance.now()}`],
      [':authority', `127.0.0.1:${host.port}`],
      ['x-forwarded-for', client],
    ];
    try {
      // A first request read and answered: the proxy's connection is in use, as a proxy's is.
      proxy.headers(1, view('198.51.100.8'), true);
      expect(await proxy.ended(1)).toEqual({});
      const before = await scrape(metricsUrl);
      // 300 streams opened and reset, thirty times the client's budget of a second, forwarded in
      // one write, as a host that reads late (a loaded machine) gets them whatever the proxy's
      // writes were. Node holds every stream of a read until the read is parsed and refuses those
      // past the advertised limit, closing the connection after 100 refusals: a proxy's connection
      // is advertised more (stream-resets.ts), else this closed it and refused its other client.
      proxy.openAndReset(
        Array.from({ length: 300 }, (_, j) => 3 + 2 * j),
        view('198.51.100.7'),
      );
      await sleep(200);
      const offender = 3 + 2 * 300;
      const other = offender + 2;
      proxy.headers(offender, view('198.51.100.7'), true);
      proxy.headers(other, view('198.51.100.8'), true);
      expect(await proxy.ended(offender)).toEqual({ rstCode: ENHANCE_YOUR_CALM });
      expect(await proxy.ended(other)).toEqual({});
      // Never cut for one of its clients (the first test's attacker's late connections may be meanwhile).
      expect(proxy.goaway).toBe(false);
      const after = await scrape(metricsUrl);
      expect(grown(before, after, 'host_http2_streams_reset_total')).toBeGreaterThan(RATE);
      expect(grown(before, after, 'host_client_reset_rate_throttled_total', { action: 'refused' })).toBeGreaterThanOrEqual(1);
    } finally {
      proxy.close();
    }
    // A hang guard: at load 25-35 the test took 15 s (a metrics scrape alone 4 s).
  }, 60_000);
});
