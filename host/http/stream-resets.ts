/**
 * Charges each HTTP/2 client for the streams it resets before their answer and the connections it
 * ends with protocol errors (host/admission/reset-rate.ts), and holds back a client in debt:
 *
 * - a direct client: every HTTP/2 connection it has open is closed with GOAWAY ENHANCE_YOUR_CALM
 *   (RFC 9113 §7: "exhibiting a behavior that might be generating excessive load"), whatever is in
 *   flight on it, and its new connections wait unread until it has repaid (connection-gate.ts);
 * - a client behind a trusted proxy: the proxy's connection carries other clients, so it is never
 *   closed for one of them; the indebted client's new streams are reset (RST_STREAM
 *   ENHANCE_YOUR_CALM) before any work, and the proxy's other clients go on.
 *
 * A stream counts as reset when it closes before its response head was sent: reset by its client
 * (RST_STREAM) or left when its client closed the connection. Streams in flight on a connection the
 * host closed for the debt are not charged again (those its client had already reset, in the read
 * being parsed, are). A stream closed after its head (an SSE stream its page left, a gRPC watch
 * cancelled) costs nothing: the host's work for it was done and answered. A stream refused for the
 * debt costs as a reset: a client that goes on opening them goes on paying.
 *
 * What a new connection's first read brings is parsed in one go (up to 64 KiB: ~1,000 streams
 * opened and reset), before any of it can be charged; connection-gate.ts keeps a client in debt
 * from opening the next one, so that is once per debt repaid, not once per connection.
 */
import http2 from 'node:http2';
import { clientKey } from '../../src/contract/client-key.ts';
import type { ClientResetRate, ResetThrottle } from '../admission/reset-rate.ts';
import { canonicalAddress } from '../net/cidr.ts';
import { clientKeyOf, type ClientAddressOf } from '../net/client-address.ts';
import type { ConnectionDebt } from './connection-gate.ts';
import type { IntervalLog } from './interval-log.ts';

const { NGHTTP2_ENHANCE_YOUR_CALM } = http2.constants;

/**
 * The streams a trusted proxy's connection may have open at once. Node refuses a new stream
 * (RST_STREAM ENHANCE_YOUR_CALM) while its session holds as many stream objects as it advertised,
 * and after 100 such refusals in a row closes the connection (maxSessionRejectedStreams); a stream
 * reset in the same read is released only after that whole read is parsed. A host that reads late
 * (a loaded machine) gets a proxy's forwarded resets, of one client, in one read: at 100 its
 * other clients' streams in that read were refused, then the connection closed. Their own budgets
 * (reset-rate.ts, client-limit.ts) bound each of its clients; this bounds only what one read holds.
 */
export const PROXY_MAX_CONCURRENT_STREAMS = 10_000;

/**
 * Session errors that are the client's protocol errors (nghttp2's GOAWAY for a malformed frame or
 * its own reset limit, `maxSessionInvalidFrames`, the client's own GOAWAY with an error), not the
 * network's (ECONNRESET). A session's 'frameError' is a frame the host could not send: not the client's.
 */
const isProtocolError = (error: unknown): boolean => typeof (error as { code?: unknown })?.code === 'string' && (error as { code: string }).code.startsWith('ERR_HTTP2_');

export class StreamResets {
  readonly #rate: ClientResetRate;
  readonly #clientAddress: ClientAddressOf;
  readonly #events: IntervalLog;
  /** Each direct client's open connections (a connection leaves when it closes), to close them when it goes into debt. */
  readonly #sessions = new Map<string, Set<http2.ServerHttp2Session>>();
  /** Connections the host closed for their client's debt: their streams' ends are not charged again. */
  readonly #cut = new WeakSet<http2.Http2Session>();

  constructor(rate: ClientResetRate, clientAddress: ClientAddressOf, events: IntervalLog) {
    this.#rate = rate;
    this.#clientAddress = clientAddress;
    this.#events = events;
  }

  /** What a client's resets make its new connections wait for (connection-gate.ts). */
  get connectionDebt(): ConnectionDebt {
    return {
      connectionDebtMs: (peer) => this.#rate.connectionDebtMs(peer),
      held: (peer) => this.#throttled(clientKey(canonicalAddress(peer)), 'held'),
    };
  }

  /** A new HTTP/2 connection: kept under its client's key (unless a trusted proxy's); its streams reset before their event and a protocol error that ends it are charged. */
  session(session: http2.ServerHttp2Session): void {
    const peer = session.socket?.remoteAddress;
    if (peer === undefined) return;
    if (this.#rate.carriesOthers(peer)) {
      session.settings({ maxConcurrentStreams: PROXY_MAX_CONCURRENT_STREAMS });
      return;
    }
    const client = clientKey(canonicalAddress(peer));
    let open = this.#sessions.get(client);
    if (open === undefined) {
      open = new Set();
      this.#sessions.set(client, open);
    }
    const sessions = open;
    sessions.add(session);
    session.once('close', () => {
      sessions.delete(session);
      if (sessions.size === 0 && this.#sessions.get(client) === sessions) this.#sessions.delete(client);
    });
    // Before the server's own listener (and so before admit()): nghttp2 parses a read in one go
    // when it comes from the host's protocol sniffer (a new connection's first read, up to 64 KiB),
    // and the 'stream' events follow, by when the streams reset in that read are closed. They are
    // charged here, where the client is known even once its connection is closed; never served.
    session.prependListener('stream', (stream: http2.ServerHttp2Stream) => {
      if ((stream.destroyed || stream.closed) && !stream.headersSent) this.#charge(client);
    });
    session.on('error', (error: unknown) => {
      if (isProtocolError(error) && !this.#cut.has(session) && this.#rate.protocolError(client)) this.#cutSessions(client);
    });
  }

  /**
   * A new stream: not served when already closed, refused (RST_STREAM ENHANCE_YOUR_CALM) when its
   * client is in debt, else charged if it closes before its response head. Whether to serve it.
   */
  admit(req: http2.Http2ServerRequest, res: http2.Http2ServerResponse): boolean {
    const session = req.stream.session;
    // Undefined when the connection is gone (closed by its client, or by the host for its debt).
    const client = clientKeyOf(req, this.#clientAddress);
    if (req.stream.destroyed || req.stream.closed) {
      // A direct client's were charged as their 'stream' event came (session()); a proxy's client's here.
      if (client !== undefined && this.#rate.carriesOthers(req.socket?.remoteAddress)) this.#charge(client);
      return false;
    }
    if (client === undefined) return true; // the exchange ends at once
    if (this.#rate.owes(client)) {
      // A stream opened while in debt costs as one reset: the client keeps paying while it goes on.
      req.stream.close(NGHTTP2_ENHANCE_YOUR_CALM);
      this.#throttled(client, 'refused');
      this.#charge(client);
      this.#cutSessions(client);
      return false;
    }
    // 'aborted' comes as nghttp2 parses the RST_STREAM (or the connection closes); a stream the
    // host ended with its client's connection is not charged again.
    req.stream.once('aborted', () => {
      if (!res.headersSent && !(session !== undefined && this.#cut.has(session))) this.#charge(client);
    });
    return true;
  }

  /** One stream reset before its answer; a client that goes into debt has its connections closed before their next read. */
  #charge(client: string): void {
    if (this.#rate.reset(client)) this.#cutSessions(client);
  }

  #cutSessions(client: string): void {
    const sessions = this.#sessions.get(client);
    if (sessions === undefined) return;
    for (const session of [...sessions]) {
      if (this.#cut.has(session) || session.destroyed) continue;
      this.#cut.add(session);
      this.#throttled(client, 'cut');
      // GOAWAY with the code (destroy's own GOAWAY says NO_ERROR), then the socket closes: frames
      // the client sent after are not parsed.
      session.goaway(NGHTTP2_ENHANCE_YOUR_CALM);
      session.destroy();
    }
  }

  #throttled(client: string, how: ResetThrottle): void {
    this.#rate.noteThrottled(how);
    this.#events.note('warn', 'HTTP/2 client held back: it reset more streams a second (or ended more connections with protocol errors) than its budget', {
      code: 'client_reset_rate',
      client,
      action: how,
      rate: this.#rate.rate,
    });
  }
}
