/**
 * The attack: one socket, one write of 1,000 pipelined GETs of views the response cache cannot
 * answer (a distinct query each). Node emits every request at once; without per-socket turns each
 * got its own guest instance (13 GB RSS, host unresponsive). With them, the host's RSS stays
 * under its memory budget and probes on other connections answer (overload.ts: expectResponsive).
 * About 10 s on a quiet machine; the limit is generous for a loaded one.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type HostProcess } from '../../harness/host-process.ts';
import { admissionLimits, expectResponsive, probeLoop, residentMiB } from './overload.ts';

const REQUESTS = 1_000;

describe('pipelined HTTP/1.1 requests on one socket', () => {
  let host: HostProcess;
  beforeAll(async () => {
    host = await startHost({ args: ['--transport', 'both'] });
  });
  afterAll(async () => {
    await host?.kill();
  });

  it('run one after another: RSS stays under the budget and other connections are served', async () => {
    const { memory_budget_mib: budget } = admissionLimits(host);
    expect(budget).toBeGreaterThan(0);
    const socket = net.connect(host.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    let answered = 0;
    let tail = '';
    socket.on('data', (chunk: Buffer) => {
      // Count status lines, also one split across two reads.
      const text = tail + chunk.toString('latin1');
      answered += text.match(/HTTP\/1\.1 \d{3} /g)?.length ?? 0;
      tail = text.slice(-16);
    });
    let pipeline = '';
    for (let i = 0; i < REQUESTS; i++) pipeline += `GET /api/counter/view?pipelined=${i} HTTP/1.1\r\nHost: localhost\r\n\r\n`;
    socket.write(pipeline);

    const probes = probeLoop(host.port, () => `/api/counter/view?probe=${performance.now()}`);
    let peak = 0;
    const deadline = performance.now() + 75_000;
    // Sampled until every answer is in; stops at once when the budget is passed (a host without
    // the defence would go on growing by gigabytes).
    while (answered < REQUESTS && performance.now() < deadline) {
      peak = Math.max(peak, residentMiB(host));
      if (peak > budget) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const probed = await probes.stop();
    socket.destroy();
    expect(peak).toBeLessThan(budget);
    expect(answered).toBe(REQUESTS);
    expectResponsive(probed);
  }, 90_000);
});
