/**
 * A lean HTTP/1.1 keep-alive client for closed-loop load: one connection, one request at a time,
 * the request's bytes built once, the answer read as far as its status line and Content-Length.
 * The load generator shares the machine's two cores with the hosts and the store, so what it
 * spends per request is taken from what it measures: per request, on this machine (2026-11-26),
 * `fetch` spent 0.47–0.80 ms of CPU, `http.request` with a keep-alive agent 0.25–0.30 ms, and this
 * client 0.10–0.12 ms (`node bench/scale.ts --client fetch` measures the first for comparison).
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

const HEAD_END = Buffer.from('\r\n\r\n');

export class Http1Client {
  readonly #port: number;
  readonly #host: string;
  readonly #request: Buffer;
  readonly #timeoutMs: number;
  #socket: Socket | undefined;
  #buffer: Buffer = Buffer.alloc(0);
  #pending: { resolve(status: number): void; timer: NodeJS.Timeout } | undefined;

  constructor(url: string, request: Http1Request, timeoutMs = 30_000) {
    const { hostname, port } = new URL(url);
    this.#host = hostname;
    this.#port = Number(port);
    this.#timeoutMs = timeoutMs;
    const body = Buffer.from(request.body ?? '');
    const headers = { host: `${hostname}:${port}`, ...request.headers, 'content-length': String(body.length) };
    const head = `${request.method} ${request.path} HTTP/1.1\r\n${Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('')}\r\n`;
    this.#request = Buffer.concat([Buffer.from(head, 'latin1'), body]);
  }

  /** Sends the request and resolves with the answer's status, or 0 when there was none. */
  send(): Promise<number> {
    if (this.#pending !== undefined) return Promise.reject(new Error('one request at a time'));
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.#fail(), this.#timeoutMs);
      this.#pending = { resolve, timer };
      this.#connection().write(this.#request);
    });
  }

  close(): void {
    this.#socket?.destroy();
    this.#socket = undefined;
  }

  #connection(): Socket {
    if (this.#socket !== undefined) return this.#socket;
    const socket = connect(this.#port, this.#host);
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
    this.#buffer = this.#buffer.subarray(total);
    this.#settle(Number(head.slice(9, 12)));
  }

  #settle(status: number): void {
    const pending = this.#pending;
    if (pending === undefined) return;
    this.#pending = undefined;
    clearTimeout(pending.timer);
    pending.resolve(status);
  }

  /** No usable answer: the connection is dropped (a later send opens a new one) and the request counts as status 0. */
  #fail(): void {
    this.close();
    this.#buffer = Buffer.alloc(0);
    this.#settle(0);
  }
}
