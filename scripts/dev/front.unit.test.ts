import { once } from 'node:events';
import { createServer, request, type Server } from 'node:http';
import { connect as http2Connect, createServer as createHttp2Server, type Http2Server } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DevEvents } from './events.ts';
import { type Front, startFront, type Upstream, withClientScript } from './front.ts';

describe('withClientScript()', () => {
  it('puts the dev script before </head>, else before </body>, else at the end', () => {
    expect(withClientScript('<html><head><title>t</title></head><body></body></html>', 3)).toBe(
      '<html><head><title>t</title><script src="/__dev/client.js?generation=3" defer></script></head><body></body></html>',
    );
    expect(withClientScript('<body>x</BODY>', 1)).toBe('<body>x<script src="/__dev/client.js?generation=1" defer></script></BODY>');
    expect(withClientScript('plain', 2)).toBe('plain<script src="/__dev/client.js?generation=2" defer></script>');
  });
});

/** The host stand-in: an HTML page, a JSON body in two chunks, and HTTP/2 on the same port. */
function upstreamServer(): Server {
  return createServer((req, res) => {
    if (req.url === '/page') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'x-from': 'host' }).end('<html><head></head><body>é</body></html>');
    res.writeHead(200, { 'content-type': 'application/json', 'x-from': 'host' });
    res.write('{"path":');
    res.end(`${JSON.stringify(req.url)},"host":${JSON.stringify(req.headers.host)}}`);
  });
}

async function listen(server: Server | Http2Server): Promise<number> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

describe('startFront()', () => {
  const events = new DevEvents();
  const http1 = upstreamServer();
  const http2 = createHttp2Server((req, res) => res.end(`h2 ${req.url}`));
  let target: Upstream = { failure: 'not yet' };
  let release: () => void = () => {};
  let waiting: Promise<void> = Promise.resolve();
  let front: Front;
  let http1Port = 0;
  let http2Port = 0;
  const base = () => `http://127.0.0.1:${front.port}`;

  beforeAll(async () => {
    http1Port = await listen(http1);
    http2Port = await listen(http2);
    target = { host: '127.0.0.1', port: http1Port };
    front = await startFront({ host: '127.0.0.1', port: 0, events, upstream: async () => (await waiting, target) });
  });
  afterAll(async () => {
    events.close();
    await front.close();
    http1.close();
    http2.close();
  });

  it('adds the dev script to HTML pages with a correct length, and passes other bodies unchanged', async () => {
    const page = await fetch(`${base()}/page`);
    const html = await page.text();
    expect(html).toContain('<script src="/__dev/client.js?generation=0" defer></script></head>');
    expect(Number(page.headers.get('content-length'))).toBe(Buffer.byteLength(html));
    expect(page.headers.get('x-from')).toBe('host');
    const json = await fetch(`${base()}/api/x?y=1`);
    expect(await json.json()).toEqual({ path: '/api/x?y=1', host: `127.0.0.1:${front.port}` });
  });

  it('serves its own script and event stream', async () => {
    const script = await fetch(`${base()}/__dev/client.js?generation=0`);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(await script.text()).toMatch(/new EventSource\(['"]\/__dev\/events['"]\)/);
    const controller = new AbortController();
    const stream = await fetch(`${base()}/__dev/events`, { signal: controller.signal });
    const reader = stream.body!.getReader();
    events.publish({ state: 'failed', message: 'src/app.ts:1:1: ERROR' });
    let text = '';
    while (!text.includes('ERROR')) text += new TextDecoder().decode((await reader.read()).value);
    expect(text).toContain('event: status');
    events.publish({ state: 'ok' }, { newGeneration: true });
    while (!text.includes('event: reload')) text += new TextDecoder().decode((await reader.read()).value);
    expect(text).toContain('data: {"generation":1}');
    controller.abort();
  });

  it('holds requests while the host restarts, and answers a page naming the error while none runs', async () => {
    waiting = new Promise((resolve) => (release = resolve));
    const held = fetch(`${base()}/api/held`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    release();
    expect(await (await held).json()).toMatchObject({ path: '/api/held' });
    target = { failure: 'the host exited (code 1): boom <script>' };
    const down = await fetch(`${base()}/`);
    expect(down.status).toBe(502);
    const body = await down.text();
    expect(body).toContain('boom &lt;script&gt;');
    expect(body).toContain('/__dev/client.js');
    target = { host: '127.0.0.1', port: http1Port };
  });

  it('passes HTTP/2 with prior knowledge (gRPC) through as bytes', async () => {
    target = { host: '127.0.0.1', port: http2Port };
    const session = http2Connect(base());
    const stream = session.request({ ':path': '/counter.v1.CounterService/GetCounter' });
    let body = '';
    stream.on('data', (chunk: Buffer) => (body += chunk.toString()));
    await once(stream, 'end');
    session.close();
    expect(body).toBe('h2 /counter.v1.CounterService/GetCounter');
    target = { host: '127.0.0.1', port: http1Port };
  });

  it('keeps a client connection alive across requests', async () => {
    const agent = new (await import('node:http')).Agent({ keepAlive: true, maxSockets: 1 });
    const get = (path: string) =>
      new Promise<string>((resolve, reject) => {
        request(`${base()}${path}`, { agent }, (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c));
          res.on('end', () => resolve(text));
        })
          .on('error', reject)
          .end();
      });
    expect(await get('/a')).toContain('"/a"');
    expect(await get('/b')).toContain('"/b"');
    agent.destroy();
  });
});
