/**
 * One HTTP exchange between a Node request/response pair (HTTP/1.1 or HTTP/2 compat API)
 * and the guest's wasi:http resources: the request body streams in, the response head is
 * sent when the guest sets it, body chunks are written as they come, trailers at the end.
 */
import type { ServerResponse } from 'node:http';
import type { FieldEntry } from '../wasi/http-fields.ts';
import { HOP_BY_HOP } from '../wasi/http-fields.ts';
import { BodySource, IncomingRequest } from '../wasi/http-incoming.ts';
import { CLIENT_ADDRESS_HEADER } from '../../src/contract/headers.ts';
import { peerAddress, type ClientAddressOf } from '../net/client-address.ts';
import { HOST_ONLY_REQUEST_HEADERS } from '../relay/headers.ts';
import { ResponseOutparam, type BodyTarget, type ResponseTarget } from '../wasi/http-response.ts';
import type { SendTimeout } from './send-timeout.ts';
import { responseClosed } from '../net/response-closed.ts';
import { BodyFlow } from './body-flow.ts';
import type { NodeRequest, NodeResponse } from '../net/node-http.ts';
import type { ResponseHook } from '../net/response-hook.ts';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Request body bytes buffered before the host stops reading from the socket. */
const INCOMING_HIGH_WATER = 1_048_576;

function requestHeaders(req: NodeRequest, clientAddress: ClientAddressOf): FieldEntry[] {
  const raw = req.rawHeaders;
  const entries: FieldEntry[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (name.startsWith(':') || HOP_BY_HOP.has(name) || HOST_ONLY_REQUEST_HEADERS.has(name) || name === CLIENT_ADDRESS_HEADER) continue;
    entries.push([name, encoder.encode(raw[i + 1]!)]);
  }
  // Added by the host only, so the guest can trust it (a client's own copy was dropped above).
  const client = clientAddress(req);
  if (client) entries.push([CLIENT_ADDRESS_HEADER, encoder.encode(client)]);
  return entries;
}

export function trailerEntries(req: NodeRequest): FieldEntry[] | undefined {
  const raw = req.rawTrailers;
  if (!raw || raw.length === 0) return undefined;
  const entries: FieldEntry[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) entries.push([raw[i]!.toLowerCase(), encoder.encode(raw[i + 1]!)]);
  return entries;
}

/**
 * The body as the client sends it; `source`: holding bytes already read from it (host/http/body-preread.ts);
 * `flow`: pauses its reading, for a full queue or the client's piece budget (body-flow.ts).
 */
export function streamBody(req: NodeRequest, source = new BodySource(), flow = new BodyFlow(req)): BodySource {
  req.on('data', (chunk: Buffer) => {
    source.queue.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    flow.piece(chunk.byteLength);
    if (source.queue.buffered > INCOMING_HIGH_WATER) {
      flow.hold('queue');
      void source.queue.whenDrained().then(() => flow.release('queue'));
    }
  });
  req.on('end', () => source.finish(trailerEntries(req)));
  req.on('aborted', () => source.fail('the client aborted the request'));
  req.on('error', (error: Error) => source.fail(error.message));
  return source;
}

/** `clientAddress`: the peer, or behind trusted proxies the client they name (host/net/client-address.ts). */
export function toIncomingRequest(req: NodeRequest, secure: boolean, body: BodySource = streamBody(req), clientAddress: ClientAddressOf = peerAddress): IncomingRequest {
  const authority = ('authority' in req && typeof req.authority === 'string' && req.authority) || req.headers.host || 'localhost';
  return new IncomingRequest({
    method: req.method ?? 'GET',
    pathWithQuery: req.url ?? '/',
    scheme: secure ? 'https' : 'http',
    authority,
    headers: requestHeaders(req, clientAddress),
    body,
  });
}

function nodeHeaders(entries: FieldEntry[]): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of entries) {
    if (HOP_BY_HOP.has(name)) continue;
    const text = decoder.decode(value);
    const prev = out[name];
    out[name] = prev === undefined ? text : Array.isArray(prev) ? [...prev, text] : [prev, text];
  }
  return out;
}

/** The state of one exchange, observable by the server after the guest returns. */
export class Exchange implements ResponseTarget {
  readonly outparam = new ResponseOutparam(this);
  readonly #res: NodeResponse;
  readonly #hook: ResponseHook | undefined;
  readonly #sendTimeout: SendTimeout | undefined;
  #started = false;
  #finished = false;

  /** `sendTimeout`: cuts the response when its client stops reading (host/http/send-timeout.ts). */
  constructor(res: NodeResponse, hook?: ResponseHook, sendTimeout?: SendTimeout) {
    this.#res = res;
    this.#hook = hook;
    this.#sendTimeout = sendTimeout;
  }

  get started(): boolean {
    return this.#started;
  }
  get finished(): boolean {
    return this.#finished;
  }

  start(status: number, guestHeaders: FieldEntry[]): BodyTarget {
    const res = this.#res;
    this.#started = true;
    // The host answered already (host/http/grpc-deadline.ts): the guest's response goes nowhere.
    if (res.writableEnded) return this.#discarded();
    const { headers, adopt, capture } = this.#hook?.head(status, guestHeaders, res) ?? { headers: guestHeaders };
    res.statusCode = status;
    for (const [name, value] of Object.entries(nodeHeaders(headers))) res.setHeader(name, value);
    // Send the head now: a streaming response must reach the client before its first chunk.
    if (!res.headersSent) (res as ServerResponse).writeHead(status);
    if ('flushHeaders' in res) res.flushHeaders();
    let congested = false;
    const drainWaiters: Array<() => void> = [];
    const sendTimeout = this.#sendTimeout;
    const wake = () => {
      congested = false;
      sendTimeout?.drained();
      for (const w of drainWaiters.splice(0)) w();
    };
    // 'close' before the end means the client went away (HTTP/1.1 socket closed, HTTP/2 RST_STREAM).
    let gone = false;
    res.on('drain', wake);
    res.on('close', () => {
      gone = true;
      wake();
    });
    const exchange = this;
    return {
      get closed() {
        return gone || responseClosed(res);
      },
      get congested() {
        return congested;
      },
      write(bytes) {
        if (gone || responseClosed(res)) return false;
        capture?.write(bytes);
        const ok = (res as ServerResponse).write(bytes);
        if (!ok) {
          congested = true;
          sendTimeout?.waiting();
        }
        return ok;
      },
      whenWritable() {
        if (!congested || responseClosed(res)) return Promise.resolve();
        return new Promise<void>((resolve) => drainWaiters.push(resolve));
      },
      finish(trailers) {
        exchange.#finished = true;
        if (gone || responseClosed(res)) return capture?.abort();
        if (adopt) return adopt();
        if (trailers && trailers.length > 0) {
          res.addTrailers(nodeHeaders(trailers) as Record<string, string>);
          capture?.abort();
        } else {
          capture?.end();
        }
        res.end();
        sendTimeout?.ended();
      },
      abort() {
        exchange.#finished = true;
        capture?.abort();
        res.destroy();
      },
    };
  }

  #discarded(): BodyTarget {
    this.#finished = true;
    return { closed: true, congested: false, write: () => false, whenWritable: () => Promise.resolve(), finish: () => undefined, abort: () => undefined };
  }

  fail(): void {
    this.#started = true;
    this.#finished = true;
    this.#res.destroy();
  }
}
