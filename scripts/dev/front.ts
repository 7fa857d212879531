/**
 * The dev runner's front: it listens where the pages are opened (`--port`) and passes everything
 * on to the host behind it, which restarts on its own port. HTTP/1.1 requests go through one by
 * one, and each HTML page gets the dev page script (page-client.ts) before `</head>`; HTTP/2
 * (gRPC with prior knowledge) and upgraded connections are piped through as bytes. While the host
 * restarts, requests wait for it; while none can start, they get a page naming the error. The
 * dev runner's own paths are `/__dev/events` and `/__dev/client.js`.
 */
import { Agent, createServer as createHttpServer, type IncomingMessage, request as httpRequest, type ServerResponse } from 'node:http';
import { connect, createServer as createNetServer, type Server, type Socket } from 'node:net';
import type { DevEvents } from './events.ts';
import { DEV_CLIENT_SCRIPT } from './page-client.ts';

/** Where the host serves, or why none does. */
export type Upstream = { host: string; port: number } | { failure: string };

export interface FrontOptions {
  host: string;
  port: number;
  /** Resolves once the host serves (it waits while the host restarts). */
  upstream(): Promise<Upstream>;
  events: DevEvents;
}

export interface Front {
  readonly port: number;
  close(): Promise<void>;
}

/** RFC 9113 §3.4: a client that knows the server speaks HTTP/2 starts with this. */
const H2_PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n');
/** RFC 9110 §7.6.1: fields of one connection, not forwarded. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade']);
/** An HTML page larger than this passes unchanged (and without the dev script). */
const MAX_PAGE_BYTES = 8 * 1_048_576;
/** Connections the front holds at most. */
const MAX_CONNECTIONS = 1_024;

const CLIENT_PATH = '/__dev/client.js';

/** `<script>` of the dev page script, telling it which host generation served the page. */
export function clientTag(generation: number): string {
  return `<script src="${CLIENT_PATH}?generation=${generation}" defer></script>`;
}

/** The page with the dev script before `</head>` (or `</body>`, or at the end). */
export function withClientScript(html: string, generation: number): string {
  const tag = clientTag(generation);
  const at = html.search(/<\/head\s*>/i);
  if (at >= 0) return `${html.slice(0, at)}${tag}${html.slice(at)}`;
  const body = html.search(/<\/body\s*>/i);
  return body >= 0 ? `${html.slice(0, body)}${tag}${html.slice(body)}` : `${html}${tag}`;
}

/** Raw header pairs without the hop-by-hop fields (and without `drop`). */
function forwardable(raw: readonly string[], drop: readonly string[] = []): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (!HOP_BY_HOP.has(name) && !drop.includes(name)) out.push(raw[i]!, raw[i + 1]!);
  }
  return out;
}

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** The page served while no host runs: the error, and the script that reloads once one does. */
function notServing(response: ServerResponse, failure: string, generation: number): void {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>npm run dev: not serving</title>${clientTag(generation)}</head><body><h1>npm run dev: the host does not run</h1><pre>${escapeHtml(failure)}</pre><p>Fix the error and save: this page reloads.</p></body></html>`;
  response.writeHead(502, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'content-security-policy': "default-src 'self'" }).end(html);
}

export async function startFront(options: FrontOptions): Promise<Front> {
  const { events } = options;
  const agent = new Agent({ keepAlive: true });

  const pipeBytes = async (client: Socket, head: Buffer) => {
    const target = await options.upstream();
    if ('failure' in target) return void client.destroy();
    const server = connect(target.port, target.host);
    server.write(head);
    client.pipe(server).pipe(client);
    client.on('error', () => server.destroy()).on('close', () => server.destroy());
    server.on('error', () => client.destroy()).on('close', () => client.destroy());
  };

  const proxy = async (request: IncomingMessage, response: ServerResponse) => {
    const target = await options.upstream();
    if ('failure' in target) return notServing(response, target.failure, events.status.generation);
    const outgoing = httpRequest({ host: target.host, port: target.port, method: request.method, path: request.url, headers: forwardable(request.rawHeaders), agent });
    response.once('close', () => {
      if (!response.writableFinished) outgoing.destroy();
    });
    outgoing.once('error', (error) => {
      if (!response.headersSent) notServing(response, `the host did not answer: ${error.message}`, events.status.generation);
      else response.destroy();
    });
    outgoing.once('response', (answer) => {
      const status = answer.statusCode ?? 502;
      const isPage = /^text\/html\b/i.test(answer.headers['content-type'] ?? '') && request.method !== 'HEAD' && status !== 204 && status !== 304;
      if (!isPage) {
        response.writeHead(status, answer.statusMessage, forwardable(answer.rawHeaders));
        answer.pipe(response);
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      answer.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
      });
      answer.once('end', () => {
        const original = Buffer.concat(chunks);
        const body = size > MAX_PAGE_BYTES ? original : Buffer.from(withClientScript(original.toString('utf8'), events.status.generation));
        response.writeHead(status, answer.statusMessage, [...forwardable(answer.rawHeaders, ['content-length']), 'content-length', String(body.length)]);
        response.end(body);
      });
    });
    request.pipe(outgoing);
  };

  const http = createHttpServer((request, response) => {
    const path = request.url ?? '/';
    if (path === '/__dev/events') return events.attach(response);
    if (path === CLIENT_PATH || path.startsWith(`${CLIENT_PATH}?`)) {
      return void response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' }).end(DEV_CLIENT_SCRIPT);
    }
    void proxy(request, response);
  });
  // An upgrade (h2c, WebSocket) is the host's business: the head as received, then the bytes.
  http.on('upgrade', (request: IncomingMessage, socket: Socket, head: Buffer) => {
    const lines = [`${request.method} ${request.url} HTTP/${request.httpVersion}`];
    for (let i = 0; i + 1 < request.rawHeaders.length; i += 2) lines.push(`${request.rawHeaders[i]}: ${request.rawHeaders[i + 1]}`);
    void pipeBytes(socket, Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`), head]));
  });

  // Each connection's first bytes say whether it speaks HTTP/2 (piped) or HTTP/1.1 (proxied).
  const sockets = new Set<Socket>(); // at most MAX_CONNECTIONS
  const server: Server = createNetServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    let first = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      first = Buffer.concat([first, chunk]);
      const n = Math.min(first.length, H2_PREFACE.length);
      const http2 = first.subarray(0, n).equals(H2_PREFACE.subarray(0, n));
      if (http2 && first.length < H2_PREFACE.length) return;
      socket.off('data', onData);
      socket.pause();
      if (http2) return void pipeBytes(socket, first);
      socket.unshift(first);
      http.emit('connection', socket);
      socket.resume();
    };
    socket.on('data', onData);
    socket.on('error', () => socket.destroy());
  });
  server.maxConnections = MAX_CONNECTIONS;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address !== null ? address.port : options.port,
    async close() {
      for (const socket of sockets) socket.destroy();
      agent.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
