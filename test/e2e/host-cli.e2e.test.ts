/** The host CLI: configuration errors (exit 2, naming the flag and allowed values) and graceful shutdown. */
import { describe, expect, it } from 'vitest';
import { runHostCli, startHost } from '../../harness/host-process.ts';

describe('host configuration', () => {
  it('rejects an unknown --db value with exit code 2 naming the allowed values', async () => {
    const { code, output } = await runHostCli(['--db', 'mongo']);
    expect(code).toBe(2);
    expect(output).toContain('--db');
    expect(output).toContain('sqlite, postgres, redis');
  });

  it('rejects an invalid environment value naming the variable', async () => {
    const { code, output } = await runHostCli([], { TRANSPORT: 'carrier-pigeon' });
    expect(code).toBe(2);
    expect(output).toContain('TRANSPORT');
    expect(output).toContain('http, grpc, both');
    expect(output).not.toContain('carrier-pigeon');
  });

  it('lets a flag win over its environment variable', async () => {
    const { code, output } = await runHostCli(['--realtime', 'bogus'], { REALTIME: 'off' });
    expect(code).toBe(2);
    expect(output).toContain('--realtime');
    const host = await startHost({ args: ['--realtime', 'off'], env: { REALTIME: 'bogus' } });
    try {
      const view = (await (await fetch(`${host.url}/api/counter/view`)).json()) as { realtime_enabled: boolean };
      expect(view.realtime_enabled).toBe(false);
    } finally {
      await host.stop();
    }
  });

  it('rejects an unknown flag and a malformed port', async () => {
    expect((await runHostCli(['--colour', 'blue'])).code).toBe(2);
    const { code, output } = await runHostCli(['--port', 'eighty']);
    expect(code).toBe(2);
    expect(output).toContain('--port');
  });
});

describe('graceful shutdown', () => {
  it('finishes in-flight requests on SIGTERM, then exits 0', async () => {
    const host = await startHost();
    const inFlight = Array.from({ length: 20 }, () =>
      fetch(`${host.url}/api/counter/increment`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"amount":1}' }).then((r) => r.status),
    );
    await new Promise((r) => setTimeout(r, 5));
    const exit = host.stop('SIGTERM');
    const statuses = await Promise.allSettled(inFlight);
    expect(await exit).toBe(0);
    // Requests accepted before the signal complete; later ones are refused at the socket, never half-answered.
    for (const s of statuses) if (s.status === 'fulfilled') expect(s.value).toBe(200);
    const codes = host.logs().map((l) => l.code);
    expect(codes).toContain('host_stopping');
    expect(codes).toContain('host_stopped');
  });
});
