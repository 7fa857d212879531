/**
 * The benchmarks' HTTP/1.1 client: one keep-alive connection, one request at a time, the answer
 * read as far as its status line, headers and Content-Length. The load generator shares the
 * machine's two cores with the hosts and the store, so what it spends per request is taken from
 * what it measures; this client spends a fraction of what `fetch` or `http.request` with a
 * keep-alive agent do (docs/runs/2026-11-26-load-clients.md). The request given to the
 * constructor is encoded once and sent by `send()`; `exchange()` may send another one and returns
 * the whole answer.
 *
 * Only what the benchmarks' answers need: a response must carry Content-Length (chunked answers
 * are refused with an error, never misread), and any failure is status 0, like a network error.
 */
import { connect, type Socket } from 'node:net';

export interface Http1Request {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface Http1Answer {
  /** 0 when there was no usable answer. */
  status: number;
  /** Header names in lower case; a repeated header (set-cookie) keeps its first value. */
  headers: Map<string, string>;
  body: Buffer;
}

/** An answer as read: the head stays text until someone asks for the headers. */
interface RawAnswer {
  status: number;
  head: string;
  body: Buffer;
}

const HEAD_END = Buffer.from('\r\n\r\n');
const NO_ANSWER: RawAnswer = { status: 0, head: '', body: Buffer.alloc(0) };

export class Http1Client {
  readonly #port: number;
  readonly #host: string;
  readonly #request: Buffer;
  readonly #timeoutMs: number;
  readonly #localAddress: string | undefined;
  #socket: Socket | undefined;
  #buffer: Buffer = Buffer.alloc(0);
  #pending: { resolve(answer: RawAnswer): void; timer: NodeJS.Timeout } | undefined;

  /** `localAddress`: the address its connections come from (a loopback one of 127/8 stands for another machine). */
  constructor(url: string, request: Http1Request, timeoutMs = 30_000, localAddress?: string) {
    const { hostname, port } = new URL(url);
    this.#host = hostname;
    this.#port = Number(port);
    this.#timeoutMs = timeoutMs;
    this.#localAddress = localAddress;
    this.#request = this.#encode(request);
  }

  /** Sends the constructor's request and resolves with the answer's status, or 0 when there was none. */
  async send(): Promise<number> {
    return (await this.#exchange(this.#request)).status;
  }

  /** Sends `request` (by default the constructor's) and resolves with the whole answer. */
  async exchange(request?: Http1Request): Promise<Http1Answer> {
    const { status, head, body } = await this.#exchange(request === undefined ? this.#request : this.#encode(request));
    return { status, headers: parseHeaders(head), body };
  }

  close(): void {
    this.#socket?.destroy();
    this.#socket = undefined;
  }

  #encode(request: Http1Request): Buffer {
    const body = Buffer.from(request.body ?? '');
    const headers = { host: `${this.#host}:${this.#port}`, ...request.headers, 'content-length': String(body.length) };
    const head = `${request.method} ${request.path} HTTP/1.1\r\n${Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('')}\r\n`;
    return Buffer.concat([Buffer.from(head, 'latin1'), body]);
  }

  #exchange(bytes: Buffer): Promise<RawAnswer> {
    if (this.#pending !== undefined) return Promise.reject(new Error('one request at a time'));
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.#fail(), this.#timeoutMs);
      this.#pending = { resolve, timer };
      this.#connection().write(bytes);
    });
  }

  #connection(): Socket {
    if (this.#socket !== undefined) return this.#socket;
    const socket = connect({ port: this.#port, host: this.#host, localAddress: this.#localAddress });
    socket.setNoDelay(true);
    // Events of a connection already dropped must not touch the one that replaced it.
    socket.on('data', (chunk: Buffer) => this.#socket === socket && this.#read(chunk));
    socket.on('error', () => this.#socket === socket && this.#fail());
    socket.on('close', () => this.#socket === socket && this.#fail());
    this.#socket = socket;
    return socket;
  }

  #read(chunk: Buffer): void {
    this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
    const end = this.#buffer.indexOf(HEAD_END);
    if (end < 0) return;
    const head = this.#buffer.subarray(0, end).toString('latin1');
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    if (length === null) return this.#fail(); // chunked or close-delimited: not for this client
    const total = end + HEAD_END.length + Number(length[1]);
    if (this.#buffer.length < total) return;
    const body = this.#buffer.subarray(end + HEAD_END.length, total);
    this.#buffer = this.#buffer.subarray(total);
    this.#settle({ status: Number(head.slice(9, 12)), head, body });
  }

  #settle(answer: RawAnswer): void {
    const pending = this.#pending;
    if (pending === undefined) return;
    this.#pending = undefined;
    clearTimeout(pending.timer);
    pending.resolve(answer);
  }

  /** No usable answer: the connection is dropped (a later send opens a new one) and the request counts as status 0. */
  #fail(): void {
    this.close();
    this.#buffer = Buffer.alloc(0);
    this.#settle(NO_ANSWER);
  }
}

function parseHeaders(head: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of head.split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).toLowerCase();
    if (colon > 0 && !headers.has(name)) headers.set(name, line.slice(colon + 1).trim());
  }
  return headers;
}
