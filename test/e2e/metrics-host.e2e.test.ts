/**
 * DNS rebinding against the operations listener: a web page at evil.example whose name the
 * attacker re-points at 127.0.0.1 makes an operator's browser send `Host: evil.example:<port>` to
 * it, and could read /metrics and /readyz as same-origin. The listener answers such a Host with 421
 * and serves IP literals, localhost and the names the operator allowed. Raw HTTP/1.1 requests, so
 * the Host header is exactly the one a browser would send.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startHost, type HostProcess } from '../../harness/host-process.ts';

/** One raw GET with the given Host; resolves with the status code and body. */
function rawGet(port: number, path: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' });
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(text)?.[1]);
      resolve({ status, body: text.slice(text.indexOf('\r\n\r\n') + 4) });
    });
    socket.write(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
  });
}

describe('the operations listener answers only its own names (DNS rebinding)', () => {
  let host: HostProcess;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    host = await startHost({ args: ['--metrics-port', String(port), '--metrics-allowed-hosts', 'metrics.internal'] });
  }, 60_000);
  afterAll(async () => {
    await host?.stop();
  });

  it.each(['/metrics', '/readyz', '/livez'])('refuses %s for Host: evil.example with 421, nothing of the answer in the body', async (path) => {
    for (const name of ['evil.example', `evil.example:${port}`, `localhost.evil.example:${port}`]) {
      const answer = await rawGet(port, path, name);
      expect(answer.status).toBe(421);
      expect(answer.body).toContain('misdirected_request');
      expect(answer.body).not.toMatch(/host_|ready|live/);
    }
  });

  it('serves its IP address, localhost and the allowed name', async () => {
    for (const name of [`127.0.0.1:${port}`, `localhost:${port}`, 'metrics.internal']) {
      expect((await rawGet(port, '/readyz', name)).status).toBe(200);
    }
    const metrics = await rawGet(port, '/metrics', `127.0.0.1:${port}`);
    expect(metrics.status).toBe(200);
    expect(metrics.body).toContain('host_http_exchanges_total');
  });

  it('logs the refusal at warn with its code', () => {
    expect(
      host
        .logs()
        .filter((line) => line.code === 'metrics_host_refused')
        .map((line) => line.level),
    ).toContain('warn');
  });
});
