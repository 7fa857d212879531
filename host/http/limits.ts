/**
 * Time limits on the host's HTTP connections, so that a client that sends slowly, sends nothing or
 * reads nothing cannot hold a socket, a stream or a guest instance for ever.
 *
 * - HTTP/1.1 heads: Node's own `headersTimeout`, counted from the first byte of each request on a
 *   connection (answered 408 and closed, RFC 9110 §15.5.9). The sockets come from the h2c sniffer
 *   (server.ts), so the HTTP/1.1 server never listens; `trackHttp1Connections` starts the connection
 *   tracking that `listen()` would have started, without which Node checks no deadline at all.
 * - HTTP/1.1 keep-alive: Node's `keepAliveTimeout` (inactivity), plus a deadline for the next whole
 *   head after a connection's last response, which bytes that start no request (bare CRLFs, RFC 9112
 *   §2.2) do not push back.
 * - HTTP/2: a connection without an open stream for `http2IdleTimeoutMs` gets GOAWAY and is closed
 *   (RFC 9113 §6.8), like Envoy's `idle_timeout` and nginx's `keepalive_timeout`.
 * Bodies and stalled responses have their own files (body-preread.ts, send-timeout.ts).
 */
import type http from 'node:http';
import type http2 from 'node:http2';
import type net from 'node:net';
import { OPTIONS } from '../config.ts';
import type { ClientPieceRate } from '../admission/piece-rate.ts';
import type { PrereadBudget } from '../admission/preread-budget.ts';
import type { IntervalLog } from './interval-log.ts';

/** Every limit in milliseconds; 0: never. */
export interface HttpLimits {
  headTimeoutMs: number;
  bodyTimeoutMs: number;
  keepAliveTimeoutMs: number;
  http2IdleTimeoutMs: number;
  sendTimeoutMs: number;
}

/** What one exchange needs: the body and send limits, and where client-caused events are logged. */
export interface ExchangeLimits {
  readonly bodyTimeoutMs: number;
  readonly sendTimeoutMs: number;
  readonly events: IntervalLog;
  /** The request body bytes the server's pre-reads hold (body-preread.ts). */
  readonly prereadBytes: PrereadBudget;
  /** Each client's budget of body pieces a second (host/admission/piece-rate.ts); none when off. */
  readonly pieceRate?: ClientPieceRate | undefined;
}

const seconds = (name: keyof typeof OPTIONS) => Number(OPTIONS[name].default) * 1000;

/** The limits of a host started without options (host/config.ts holds the defaults). */
export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  headTimeoutMs: seconds('head-timeout-seconds'),
  bodyTimeoutMs: seconds('body-timeout-seconds'),
  keepAliveTimeoutMs: seconds('keepalive-timeout-seconds'),
  http2IdleTimeoutMs: seconds('http2-idle-timeout-seconds'),
  sendTimeoutMs: seconds('send-timeout-seconds'),
};

export function httpLimits(config: {
  headTimeoutSeconds: number;
  bodyTimeoutSeconds: number;
  keepAliveTimeoutSeconds: number;
  http2IdleTimeoutSeconds: number;
  sendTimeoutSeconds: number;
}): HttpLimits {
  return {
    headTimeoutMs: config.headTimeoutSeconds * 1000,
    bodyTimeoutMs: config.bodyTimeoutSeconds * 1000,
    keepAliveTimeoutMs: config.keepAliveTimeoutSeconds * 1000,
    http2IdleTimeoutMs: config.http2IdleTimeoutSeconds * 1000,
    sendTimeoutMs: config.sendTimeoutSeconds * 1000,
  };
}

/** How often Node looks for expired request heads (its default, 30 s, would let a head live 30 s past its limit). */
const DEADLINE_CHECK_MS = 1000;

/** Options of the HTTP/1.1 server (`http.createServer`) carrying these limits. */
export function http1ServerOptions(limits: HttpLimits): http.ServerOptions {
  return {
    headersTimeout: limits.headTimeoutMs,
    // Head plus body from the request's first byte: a backstop for bodies streamed to the guest
    // (the bodies the host reads itself have their own, earlier deadline: body-preread.ts).
    requestTimeout: limits.headTimeoutMs > 0 && limits.bodyTimeoutMs > 0 ? limits.headTimeoutMs + limits.bodyTimeoutMs : 0,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: DEADLINE_CHECK_MS,
  };
}

/**
 * Applies the HTTP/1.1 limits to a server that is fed sockets and never listens. Node starts its
 * deadline checks (headersTimeout, requestTimeout) on the server's 'listening' event; emitting it
 * here starts exactly that and nothing else (nothing else listens for it).
 */
export function trackHttp1Connections(h1: http.Server, limits: HttpLimits, events: IntervalLog): void {
  h1.emit('listening');
  h1.on('connection', (socket: net.Socket) => {
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ERR_HTTP_REQUEST_TIMEOUT') return;
      // Node answered 408 and closed; a request whose head was complete timed out in its body.
      const incoming = (socket as net.Socket & { parser?: { incoming?: http.IncomingMessage | null } }).parser?.incoming;
      if (incoming && !incoming.complete)
        events.note('info', 'a request body did not arrive in time; answered 408 and closed', { code: 'http_body_timeout', protocol: 'http/1.1' });
      else events.note('info', 'a request head did not arrive in time; answered 408 and closed', { code: 'http_head_timeout', protocol: 'http/1.1' });
    });
  });
  const nextHeadMs = limits.keepAliveTimeoutMs > 0 && limits.headTimeoutMs > 0 ? limits.keepAliveTimeoutMs + limits.headTimeoutMs : 0;
  if (nextHeadMs > 0) closeConnectionsWithoutNextRequest(h1, nextHeadMs);
}

/** Once a connection's last response is done, its next head must be complete within `deadlineMs`. */
function closeConnectionsWithoutNextRequest(h1: http.Server, deadlineMs: number): void {
  const state = new WeakMap<net.Socket, { open: number; timer?: NodeJS.Timeout }>();
  h1.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const socket = req.socket;
    let entry = state.get(socket);
    if (!entry) {
      const created: { open: number; timer?: NodeJS.Timeout } = { open: 0 };
      socket.once('close', () => clearTimeout(created.timer));
      state.set(socket, created);
      entry = created;
    }
    clearTimeout(entry.timer);
    entry.open++;
    res.once('close', () => {
      if (--entry.open > 0 || socket.destroyed) return;
      entry.timer = setTimeout(() => socket.destroy(), deadlineMs);
      entry.timer.unref();
    });
  });
}

/** Closes HTTP/2 connections that have had no open stream for `limits.http2IdleTimeoutMs`. */
export function closeIdleHttp2Sessions(h2: http2.Http2Server, limits: HttpLimits): void {
  const idleMs = limits.http2IdleTimeoutMs;
  if (idleMs <= 0) return;
  h2.on('session', (session: http2.ServerHttp2Session) => {
    let open = 0;
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      timer = setTimeout(() => {
        // GOAWAY with NO_ERROR: the client may open a new connection when it needs one.
        session.close();
        setTimeout(() => session.destroy(), 1000).unref();
      }, idleMs);
      timer.unref();
    };
    session.on('stream', (stream: http2.ServerHttp2Stream) => {
      open++;
      clearTimeout(timer);
      stream.once('close', () => {
        if (--open === 0 && !session.closed && !session.destroyed) arm();
      });
    });
    session.once('close', () => clearTimeout(timer));
    arm();
  });
}
