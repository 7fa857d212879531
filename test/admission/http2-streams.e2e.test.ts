/**
 * The attack: 300 concurrent streams of uncached views on one HTTP/2 connection. Without a
 * SETTINGS_MAX_CONCURRENT_STREAMS each stream got its own guest instance (4.3 GB, probes
 * failing). The host advertises 100 (RFC 9113 §6.5.2, as nginx and Envoy do); a client that
 * opens more before it reads the limit gets them refused (REFUSED_STREAM), and the streams it
 * may open wait for the instances the memory budget allows or get a 503.
 */
import http2 from 'node:http2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type HostProcess } from '../../harness/host-process.ts';
import { admissionLimits, expectResponsive, probeLoop, residentMiB } from './overload.ts';

const STREAMS = 300;

describe('concurrent streams on one HTTP/2 connection', () => {
  let host: HostProcess;
  beforeAll(async () => {
    host = await startHost({ args: ['--transport', 'both'] });
  });
  afterAll(async () => {
    await host?.kill();
  });

  it('are limited to the 100 the host advertises; RSS stays under the budget and probes answer', async () => {
    const { memory_budget_mib: budget } = admissionLimits(host);
    // As if the limit were 1,000 until the server's SETTINGS arrive: all 300 go out at once.
    const session = http2.connect(host.url, { peerMaxConcurrentStreams: 1_000 });
    const settings = new Promise<http2.Settings>((resolve) => session.once('remoteSettings', resolve));
    session.on('error', () => undefined);
    // Without the limit the streams would take gigabytes: end the session at once.
    void settings.then((s) => s.maxConcurrentStreams !== 100 && session.destroy());
    const probes = probeLoop(host.port, () => `/api/counter/view?probe=${performance.now()}`);
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, residentMiB(host))), 100);
    const outcomes = await Promise.all(
      Array.from(
        { length: STREAMS },
        (_, i) =>
          new Promise<string>((resolve) => {
            const stream = session.request({ ':path': `/api/counter/view?stream=${i}` });
            stream.on('response', (headers) => resolve(String(headers[':status'])));
            stream.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
            stream.on('close', () => resolve(`closed ${stream.rstCode}`));
            stream.resume();
            stream.end();
          }),
      ),
    );
    clearInterval(sampler);
    const probed = await probes.stop();
    expect((await settings).maxConcurrentStreams).toBe(100);
    session.close();
    expect(peak).toBeLessThan(budget);
    const counts: Record<string, number> = {};
    for (const outcome of outcomes) counts[outcome] = (counts[outcome] ?? 0) + 1;
    // Answered (200, or 503 when the wait queue was full), or refused by HTTP/2 itself.
    expect(
      Object.keys(counts).every((o) => o === '200' || o === '503' || o === 'closed 7' || o === 'ERR_HTTP2_STREAM_ERROR'),
      JSON.stringify(counts),
    ).toBe(true);
    expect(counts['200'] ?? 0).toBeGreaterThan(0);
    expectResponsive(probed);
  });
});
