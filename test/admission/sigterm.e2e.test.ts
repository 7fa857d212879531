/**
 * SIGTERM under load: 500 requests in flight (SSE streams the guest holds, which never end on
 * their own, --stream-relay off). The host stops accepting at once and exits within 10 s
 * whatever is still running, as supervisors expect before they SIGKILL (Kubernetes waits 30 s by
 * default, systemd 90 s; a rolling update should not wait that long).
 */
import http from 'node:http';
import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { startHost, type HostProcess } from '../../harness/host-process.ts';

const IN_FLIGHT = 500;

describe('SIGTERM while overloaded', () => {
  let host: HostProcess | undefined;
  afterAll(async () => {
    await host?.kill();
  });

  it('stops accepting at once and exits within 10 s', async () => {
    // All 500 come from 127.0.0.1 and must be in flight, not refused at the per-client limit (128 by default).
    host = await startHost({ args: ['--transport', 'both', '--stream-relay', 'off', '--instances-max', '40', '--client-exchange-limit', '0'] });
    const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
    const requests: http.ClientRequest[] = [];
    let answered = 0;
    for (let i = 0; i < IN_FLIGHT; i++) {
      const req = http.get({ host: '127.0.0.1', port: host.port, path: '/api/counter/stream', agent, headers: { accept: 'text/event-stream' } }, (res) => {
        answered++;
        res.resume();
      });
      req.on('error', () => undefined);
      requests.push(req);
    }
    // Wait until the host has seen them: some hold instances, the rest wait or were refused.
    const seen = performance.now() + 10_000;
    while (answered < 10 && performance.now() < seen) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(answered).toBeGreaterThanOrEqual(10);

    const signalled = performance.now();
    const exited = host.stop('SIGTERM');
    // The listener closes at once: a new connection is refused.
    const stopping = performance.now() + 2_000;
    while (!host.logs().some((l) => l.code === 'host_stopping') && performance.now() < stopping) await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const connect = await new Promise<string>((resolve) => {
      const socket = net.connect(host!.port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), resolve('connected')));
      socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    });
    expect(connect).toBe('ECONNREFUSED');
    const code = await Promise.race([exited, new Promise<string>((resolve) => setTimeout(() => resolve('still running'), 12_000))]);
    const seconds = (performance.now() - signalled) / 1000;
    for (const req of requests) req.destroy();
    expect(code).not.toBe('still running');
    expect(seconds).toBeLessThan(10);
  });
});
