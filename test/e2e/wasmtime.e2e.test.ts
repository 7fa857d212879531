/**
 * The standalone component under the real `wasmtime serve` (real wasi:filesystem, a fresh
 * instance per request): REST answers identical to the Node host's, 16 clients × 25 concurrent
 * increments with nothing lost, kill -9 of wasmtime mid-traffic with every acknowledged command
 * kept, the SSE stream in polling mode, a missing data directory, and the component's own
 * refusal of gRPC.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFileStorage } from '../../src/platform/standalone/file-storage.ts';
import { GRPC_NEEDS_NODE_HOST } from '../../src/platform/standalone/runtime-config.ts';
import { freePort, startHost, tempDataDir, type HostProcess } from '../../harness/host-process.ts';
import { counterFrame, openSse } from '../../harness/sse.ts';
import { requireTool } from '../../harness/tools.ts';
import { prepareWasmtimeComponent, startWasmtime, type WasmtimeProcess } from '../../harness/wasmtime-process.ts';
import { nodeFileSystem } from '../../scripts/wasmtime/node-file-system.ts';

const wasmtime = requireTool('wasmtime');
const json = { 'content-type': 'application/json' };

const increment = (url: string, amount = 1) => fetch(`${url}/api/counter/increment`, { method: 'POST', headers: json, body: JSON.stringify({ amount }) });
const view = async (url: string) => (await (await fetch(`${url}/api/counter/view`)).json()) as { count: number; last_sequence: number; realtime_enabled: boolean };

/** What the file store holds, read with the same store code over node:fs. */
function storedEvents(dataDir: string) {
  const store = openFileStorage(nodeFileSystem(dataDir));
  const events = [];
  for (let after = 0n; ; ) {
    const page = store.events.readAll(after, 1000);
    if (page.length === 0) return events;
    events.push(...page);
    after = page.at(-1)!.sequence;
  }
}

describe.skipIf(!wasmtime)('standalone component under wasmtime serve', () => {
  beforeAll(() => {
    prepareWasmtimeComponent(wasmtime!.path);
  }, 600_000);

  describe('REST answers match the Node host', () => {
    let node: HostProcess;
    let wasm: WasmtimeProcess;
    beforeAll(async () => {
      [node, wasm] = await Promise.all([startHost({ args: ['--realtime', 'polling'] }), startWasmtime({}, wasmtime!.path)]);
    }, 120_000);
    afterAll(async () => {
      await Promise.all([node?.stop(), wasm?.stop()]);
    });

    const big = JSON.stringify({ amount: 1, pad: 'x'.repeat(300 * 1024) });
    /** Successes and every error of the REST table, in an order that also reaches the domain error. */
    const requests: Array<[string, string, RequestInit?]> = [
      ['view on an empty store', '/api/counter/view'],
      ['increment', '/api/counter/increment', { method: 'POST', headers: json, body: '{"amount":5}' }],
      ['decrement', '/api/counter/decrement?amount=2', { method: 'POST' }],
      ['reset', '/api/counter/reset', { method: 'POST' }],
      ['amount 0', '/api/counter/increment', { method: 'POST', headers: json, body: '{"amount":0}' }],
      ['amount 1.5', '/api/counter/increment', { method: 'POST', headers: json, body: '{"amount":1.5}' }],
      ['amount 2^31', '/api/counter/increment', { method: 'POST', headers: json, body: `{"amount":${2 ** 31}}` }],
      ['amount missing', '/api/counter/increment', { method: 'POST', headers: json, body: '{}' }],
      ['decrement without amount', '/api/counter/decrement', { method: 'POST' }],
      ['decrement amount abc', '/api/counter/decrement?amount=abc', { method: 'POST' }],
      ['malformed JSON', '/api/counter/increment', { method: 'POST', headers: json, body: '{"amount":' }],
      ['text/plain', '/api/counter/increment', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{"amount":1}' }],
      ['body over 256 KiB', '/api/counter/increment', { method: 'POST', headers: json, body: big }],
      ['to i32 max', '/api/counter/increment', { method: 'POST', headers: json, body: '{"amount":2147483647}' }],
      ['past i32 max (domain)', '/api/counter/increment', { method: 'POST', headers: json, body: '{"amount":1}' }],
      ['GET on a POST route', '/api/counter/increment'],
      ['POST on the view', '/api/counter/view', { method: 'POST' }],
      ['unknown route', '/api/counter/nope'],
      ['unknown API', '/api/unknown'],
      ['bad stream position', '/api/counter/stream?last_sequence=-1'],
    ];

    /** Status, content type, Allow and body, with store-assigned times blanked. */
    async function answer(url: string, path: string, init?: RequestInit) {
      const response = await fetch(`${url}${path}`, init);
      const text = await response.text();
      return {
        status: response.status,
        type: response.headers.get('content-type'),
        allow: response.headers.get('allow'),
        body: text.replace(/"recorded_at":"[^"]+"/g, '"recorded_at":"<t>"'),
      };
    }

    it('gives the same status, headers and body for every case, in order', async () => {
      for (const [name, path, init] of requests) {
        const [fromNode, fromWasm] = [await answer(node.url, path, init), await answer(wasm.url, path, init)];
        expect({ name, ...fromWasm }).toEqual({ name, ...fromNode });
      }
      // Sanity: the table really covered the error codes.
      const codes = new Set<string>();
      for (const [, path, init] of requests.slice(4)) {
        const body = (await answer(wasm.url, path, init)).body;
        const code = /"code":"([a-z_]+)"/.exec(body)?.[1];
        if (code) codes.add(code);
      }
      expect([...codes].sort()).toEqual(['domain', 'method_not_allowed', 'not_found', 'payload_too_large', 'unsupported_media_type', 'validation']);
    }, 120_000);
  });

  // Reused instances also exercise the store's in-memory facts across requests.
  it.each([1, 16])(
    '16 clients × 25 concurrent increments → 400, sequences and revisions contiguous (instance reuse %i)',
    async (instanceReuse) => {
      const server = await startWasmtime({ instanceReuse }, wasmtime!.path);
      try {
        const statuses: number[] = [];
        const client = async () => {
          for (let i = 0; i < 25; i++) {
            const response = await increment(server.url);
            statuses.push(response.status);
            await response.arrayBuffer();
          }
        };
        await Promise.all(Array.from({ length: 16 }, client));
        expect(statuses.filter((s) => s !== 200)).toEqual([]);
        const final = await view(server.url);
        expect(final).toMatchObject({ count: 400, last_sequence: 400, realtime_enabled: true });
      } finally {
        await server.stop();
      }
      const events = storedEvents(server.dataDir);
      expect(events.map((e) => Number(e.sequence))).toEqual(Array.from({ length: 400 }, (_, i) => i + 1));
      expect(events.map((e) => Number(e.revision))).toEqual(Array.from({ length: 400 }, (_, i) => i + 1));
    },
    180_000,
  );

  it('keeps every acknowledged command across kill -9 of wasmtime mid-traffic, and goes on', async () => {
    const dataDir = tempDataDir('wasmtime-kill-');
    const first = await startWasmtime({ dataDir }, wasmtime!.path);
    let acknowledged = 0;
    let stop = false;
    const client = async () => {
      while (!stop) {
        try {
          const response = await increment(first.url);
          if (response.status === 200) acknowledged++;
          await response.arrayBuffer();
        } catch {
          return; // the connection died with wasmtime
        }
      }
    };
    const clients = Array.from({ length: 8 }, client);
    while (acknowledged < 60) await new Promise((resolve) => setTimeout(resolve, 20));
    await first.kill();
    stop = true;
    await Promise.all(clients);

    const second = await startWasmtime({ dataDir }, wasmtime!.path);
    try {
      const after = await view(second.url);
      // Every 200 is there; a request in flight at the kill may have committed without its answer.
      expect(after.count).toBeGreaterThanOrEqual(acknowledged);
      expect(after.count).toBeLessThanOrEqual(acknowledged + 8);
      expect(after.last_sequence).toBe(after.count);
      const next = await increment(second.url);
      expect(next.status).toBe(200);
      expect(((await next.json()) as { count: number }).count).toBe(after.count + 1);
    } finally {
      await second.stop();
    }
    const events = storedEvents(dataDir);
    expect(events.map((e) => Number(e.sequence))).toEqual(Array.from({ length: events.length }, (_, i) => i + 1));
    expect(events.map((e) => Number(e.revision))).toEqual(Array.from({ length: events.length }, (_, i) => i + 1));
  }, 180_000);

  it('streams updates over SSE in polling mode', async () => {
    const server = await startWasmtime({}, wasmtime!.path);
    try {
      await increment(server.url, 3);
      const stream = await openSse(`${server.url}/api/counter/stream`);
      try {
        expect(stream.response.status).toBe(200);
        expect(stream.response.headers.get('content-type')).toMatch(/text\/event-stream/);
        const catchUp = await stream.waitFor(counterFrame(1), 10_000);
        expect(JSON.parse(catchUp.data!).view.count).toBe(3);
        // A change made through another instance reaches this stream by polling the files.
        await increment(server.url, 4);
        const live = await stream.waitFor(counterFrame(2), 10_000);
        expect(JSON.parse(live.data!)).toMatchObject({ last_sequence: 2, view: { count: 7 } });
      } finally {
        stream.close();
      }
    } finally {
      await server.stop();
    }
  }, 120_000);

  it('realtime off reports realtime_enabled false', async () => {
    const server = await startWasmtime({ realtime: 'off' }, wasmtime!.path);
    try {
      expect((await view(server.url)).realtime_enabled).toBe(false);
    } finally {
      await server.stop();
    }
  }, 120_000);

  it('without its data directory the component answers 503 store, not a crash', async () => {
    const port = await freePort();
    // No --dir: the preopen the store needs is missing.
    const child = spawn(wasmtime!.path, ['serve', '-S', 'cli=y', '--addr', `127.0.0.1:${port}`, '--allow-precompiled', prepareWasmtimeComponent(wasmtime!.path)], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    try {
      await new Promise<void>((resolve) => child.stderr.on('data', (c: Buffer) => c.toString().includes('Serving HTTP') && resolve()));
      const response = await fetch(`http://127.0.0.1:${port}/api/counter/view`);
      expect(response.status).toBe(503);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('store');
    } finally {
      child.kill('SIGKILL');
    }
  }, 120_000);

  it('the component itself refuses transport grpc when started that way, naming the Node host', async () => {
    const server = await startWasmtime({ guestEnv: { TRANSPORT: 'grpc' } }, wasmtime!.path);
    try {
      const response = await fetch(`${server.url}/api/counter/view`);
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({ error: { code: 'configuration', message: GRPC_NEEDS_NODE_HOST } });
      expect(GRPC_NEEDS_NODE_HOST).toMatch(/Node host/);
      await expect.poll(() => server.logs().some((l) => l['code'] === 'config_invalid' && l['source'] === 'component')).toBe(true);
    } finally {
      await server.stop();
    }
  }, 120_000);
});
