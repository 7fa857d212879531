/**
 * What the overload suites share: the host's resident set, its logged admission limits, and a
 * probe on a connection of its own (a new HTTP/1.1 connection per probe, as a health checker would).
 */
import http from 'node:http';
import { expect } from 'vitest';
import { residentBytes } from '../../bench/lib/proc-memory.ts';
import type { HostProcess } from '../../harness/host-process.ts';

export const residentMiB = (host: HostProcess): number => residentBytes(host.child.pid!) / 1_048_576;

/** The `admission_limits` line the host logs at start. */
export function admissionLimits(host: HostProcess): { memory_budget_mib: number; instances_max: number; instances_streaming: number; queue_length: number } {
  const line = host.logs().find((l) => l.code === 'admission_limits');
  if (!line) throw new Error('the host logged no admission_limits line');
  return line as never;
}

/** One GET on a fresh connection; resolves with its status and how long it took. */
export function probe(port: number, path: string, timeoutMs = 5_000): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path, agent: false, timeout: timeoutMs }, (res) => {
      res.resume();
      res.once('end', () => resolve({ status: res.statusCode!, ms: performance.now() - started }));
    });
    req.once('timeout', () => req.destroy(new Error(`probe ${path} got no answer within ${timeoutMs} ms`)));
    req.once('error', reject);
  });
}

/** Probes every `everyMs` until stopped; returns each probe's outcome (a failure counts as an error string). */
export function probeLoop(port: number, path: () => string, everyMs = 250): { stop(): Promise<Array<{ status: number; ms: number } | string>> } {
  const results: Array<{ status: number; ms: number } | string> = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      results.push(await probe(port, path()).catch((error: unknown) => String(error)));
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return results;
    },
  };
}

/** Opens an SSE stream (with --stream-relay off the guest holds it, and its instance), resolving once a 200 head arrived; returns the request to end it. */
export function holdStream(port: number): Promise<http.ClientRequest> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/api/counter/stream', agent: false, headers: { accept: 'text/event-stream' } }, (res) => {
      res.resume();
      if (res.statusCode === 200) resolve(req);
      else reject(new Error(`the stream got ${res.statusCode}`));
    });
    req.once('error', reject);
  });
}

/**
 * The probes beside an attack: every one answered 200; their median within 1 s (the goal), and
 * each within 5 s: on the shared 2-core machine (load averages near 20 while other suites run)
 * the scheduler alone delays a single probe by over a second now and then. A host without the
 * defences does not answer at all for tens of seconds.
 */
export function expectResponsive(probed: Array<{ status: number; ms: number } | string>): void {
  expect(probed.length).toBeGreaterThan(0);
  const ms = probed.map((result) => {
    expect(result).toMatchObject({ status: 200 });
    return typeof result === 'string' ? Infinity : result.ms;
  });
  for (const each of ms) expect(each).toBeLessThan(5_000);
  const sorted = [...ms].sort((a, b) => a - b);
  expect(sorted[Math.floor(sorted.length / 2)]).toBeLessThan(1_000);
}
