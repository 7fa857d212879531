/**
 * The HTTP server: every request borrows a guest instance for its exchange.
 * Nothing here blocks the event loop; a guest that waits suspends (JSPI) and others go on.
 *
 * One port serves HTTP/1.1 and HTTP/2 cleartext with prior knowledge: each new connection is
 * handed to the matching Node server by its first bytes (connection-route.ts).
 */
import http from 'node:http';
import http2 from 'node:http2';
import net, { type AddressInfo } from 'node:net';
import type { FairShare } from '../admission/fair-share.ts';
import { type ClientDefences, portDefences } from '../admission/policy.ts';
import { laneOf, sendRefusal } from '../admission/refusal.ts';
import { AdmissionRefused } from '../admission/wait-queue.ts';
import { afterRead } from '../admission/after-read.ts';
import { pieceDebt } from './body-flow.ts';
import { clientKeyOf, peerAddress, type ClientAddressOf } from '../net/client-address.ts';
import type { ConnectionDebt } from './connection-gate.ts';
import { acceptConnection } from './connection-route.ts';
import { Departures } from './departures.ts';
import { Exchange, streamBody, toIncomingRequest } from './exchange.ts';
import type { ResponseHook } from '../net/response-hook.ts';
import type { NodeRequest, NodeResponse } from '../net/node-http.ts';
import { prereadBody } from './body-preread.ts';
import { enforceGrpcDeadline, grpcDeadlineOf, refuseMalformedTimeout } from './grpc-deadline.ts';
import { IntervalLog } from './interval-log.ts';
import { closeIdleHttp2Sessions, DEFAULT_HTTP_LIMITS, http1ServerOptions, trackHttp1Connections, type ExchangeLimits, type HttpLimits } from './limits.ts';
import { responseClosed, onResponseClosed } from '../net/response-closed.ts';
import { sendTimeoutFor } from './send-timeout.ts';
import { StreamResets } from './stream-resets.ts';
import { admitTarget } from './target-gate.ts';
import { describeError, type HostLogger } from '../log.ts';
import type { ExchangeObserver } from '../metrics/exchanges.ts';
import type { InstancePool } from '../guest/pool.ts';
import type { BodySource } from '../wasi/http-incoming.ts';
import type { ResponseCache } from '../response-cache/cache.ts';
import { cacheHook, cacheRequest, chainHooks, serveFromCache, stripPrivateFields, waitForFill } from '../response-cache/serve.ts';

export interface RunningServer {
  readonly port: number;
  /** Stops accepting, waits up to `graceMs` for in-flight exchanges, then cuts the rest. */
  close(graceMs: number): Promise<void>;
}

const FALLBACK_BODY = JSON.stringify({ error: { code: 'internal', message: 'internal error' } });

/** Makes the response hook of one exchange (the stream relay's, host/relay/hook.ts). */
export type HookFactory = (req: NodeRequest) => ResponseHook;

/** HTTP/2 streams one connection may have open at once (RFC 9113 §6.5.2), the value nginx and Envoy advertise. */
export const MAX_CONCURRENT_STREAMS = 100;
/** Ordinary requests of one HTTP/2 connection running at once: a quarter of the instances, at least one. */
const perSessionLimit = (instances: number): number => Math.max(1, Math.floor(instances / 4));

/** What a port's exchanges share: its time limits and how the client's address is found. */
export interface ExchangeContext {
  /** With limits, a small body is read before an instance is taken and a response its client stops reading is cut (host/http/). */
  limits?: ExchangeLimits;
  /** The client address the guest is told (host/net/client-address.ts); default the TCP peer. */
  clientAddress?: ClientAddressOf;
  /** Each client's fair share of ordinary guest runs (host/admission/fair-share.ts); none: no bound. */
  fairShare?: FairShare;
  /** Counts exchanges whose client left before the guest ran them. */
  departures?: Departures;
}

/** A malformed `grpc-timeout` is refused at once; otherwise the body is read (or streamed) and the guest runs the exchange. */
export function handleExchange(pool: InstancePool, logger: HostLogger, req: NodeRequest, res: NodeResponse, hook?: HookFactory, context: ExchangeContext = {}): Promise<void> {
  const deadline = grpcDeadlineOf(req);
  if (deadline.kind === 'malformed') return Promise.resolve(refuseMalformedTimeout(logger, req, res));
  const deadlineMs = deadline.kind === 'after' ? deadline.ms : undefined;
  const body = context.limits ? prereadBody(req, res, context.limits) : streamBody(req);
  if (body instanceof Promise) return body.then((read) => (read ? runExchange(pool, logger, req, res, read, deadlineMs, hook, context) : undefined));
  return body ? runExchange(pool, logger, req, res, body, deadlineMs, hook, context) : Promise.resolve();
}

function runExchange(
  pool: InstancePool,
  logger: HostLogger,
  req: NodeRequest,
  res: NodeResponse,
  body: BodySource,
  deadlineMs: number | undefined,
  hook: HookFactory | undefined,
  context: ExchangeContext,
): Promise<void> {
  const exchange = new Exchange(res, hook?.(req), sendTimeoutFor(res, context.limits));
  const incoming = toIncomingRequest(req, false, body, context.clientAddress);
  if (deadlineMs !== undefined) enforceGrpcDeadline(logger, deadlineMs, req, res, body);
  // A client that leaves (or whose deadline is answered) while its exchange waits for an instance
  // leaves the queue; one already gone (an HTTP/2 stream reset before this point) at once.
  const departed = new AbortController();
  const onClose = () => departed.abort();
  onResponseClosed(res, onClose);
  let refused = false;
  const lane = laneOf(req);
  const client = clientKeyOf(req, context.clientAddress ?? peerAddress);
  const guestRun = () =>
    pool.run(
      (instance) => {
        res.off('close', onClose);
        // Its client left while the instance was made ready: the guest does not start for no one.
        if (responseClosed(res)) {
          context.departures?.note('before_run');
          return Promise.resolve();
        }
        return instance.handle(incoming, exchange.outparam);
      },
      { lane, signal: departed.signal, client },
    );
  // An ordinary request waits while its client has its fair share of the guest (admission/fair-share.ts).
  const share = lane === 'request' && client !== undefined ? context.fairShare : undefined;
  return (share === undefined ? guestRun() : share.run(client!, guestRun, departed.signal))
    .catch((error: unknown) => {
      if (error instanceof AdmissionRefused) {
        refused = true;
        if (error.reason === 'departed') context.departures?.note('waiting');
        sendRefusal(req, res, error.reason);
        return;
      }
      logger.log('error', 'the guest trapped while handling a request', { code: 'guest_trap', error: describeError(error), method: req.method });
    })
    .finally(() => {
      res.off('close', onClose);
      if (refused || responseClosed(res)) return;
      if (!exchange.started && !res.headersSent) {
        logger.log('error', 'the guest returned without a response', { code: 'guest_no_response', method: req.method });
        (res as http.ServerResponse).writeHead(500, { 'content-type': 'application/json' });
        res.end(FALLBACK_BODY);
      } else if (!exchange.finished && !res.writableEnded) {
        // The guest returned (or trapped) mid-body: the response cannot be completed honestly.
        res.destroy();
      }
    });
}

/** A request the response cache may answer (host/response-cache/); on a miss, the guest's exchange as usual. */
function cachedExchange(
  cache: ResponseCache,
  pool: InstancePool,
  logger: HostLogger,
  req: NodeRequest,
  res: NodeResponse,
  hook?: HookFactory,
  context: ExchangeContext = {},
): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    // Never cached: only the guest's private cache fields are removed.
    return handleExchange(pool, logger, req, res, (r) => (hook ? chainHooks(stripPrivateFields, hook(r)) : stripPrivateFields), context);
  }
  const request = cacheRequest(req);
  const runGuest = (): Promise<void> => {
    // Later misses on this target wait for this run instead of starting their own (cache.ts).
    const settled = cache.beginFill(request);
    const withCache: HookFactory = (r) => (hook ? chainHooks(cacheHook(cache, r, settled), hook(r)) : cacheHook(cache, r, settled));
    return handleExchange(pool, logger, req, res, withCache, context).finally(settled);
  };
  const afterMiss = (): Promise<void> => {
    const fill = cache.pendingFill(request);
    if (fill === undefined) return runGuest();
    return waitForFill(fill).then(async () => ((await serveFromCache(cache, req, res)) ? undefined : runGuest()));
  };
  const served = serveFromCache(cache, req, res);
  if (served === true) return Promise.resolve();
  if (served === false) return afterMiss();
  return served.then((hit) => (hit ? undefined : afterMiss()));
}

/** The per-client bounds come from the host (host/admission/policy.ts, clientDefences), shared by its ports. */
export interface ServerOptions extends ClientDefences {
  port: number;
  host: string;
  hook?: HookFactory;
  /** Answers repeated cacheable GETs without the guest (host/response-cache/); none when off. */
  cache?: ResponseCache;
  /** SO_REUSEPORT: several worker threads listen on one port and the kernel spreads connections (host/workers/). */
  reusePort?: boolean;
  /** Sees every exchange of this port (host/metrics/exchanges.ts); none with metrics off. */
  observe?: ExchangeObserver | undefined;
  /** Time limits on heads, bodies, idle connections and stalled responses (host/http/limits.ts); the defaults when absent. */
  limits?: HttpLimits;
  /** The client address the guest is told (host/net/client-address.ts); default the TCP peer. */
  clientAddress?: ClientAddressOf;
  /** Counts exchanges whose client left before the guest ran them (host_exchanges_departed_total). */
  departures?: Departures;
  /** Sees the port's fair share of guest runs per client (host/admission/fair-share.ts), for metrics. */
  onFairShare?: (fairShare: FairShare) => void;
}

export function startServer(pool: InstancePool, logger: HostLogger, options: ServerOptions): Promise<RunningServer> {
  const inFlight = new Set<Promise<void>>();
  // Sockets not handed to HTTP/2, with their open HTTP/1.1 exchanges. Node's own idle-connection
  // tracking (closeIdleConnections) only starts when a server listens itself, which h1 never does.
  const plainSockets = new Map<net.Socket, number>();
  let stopping = false;
  const departures = options.departures ?? new Departures();
  const limits = options.limits ?? DEFAULT_HTTP_LIMITS;
  const events = new IntervalLog(logger);
  // The port's own defences (admission/policy.ts lists every defence in the order a request meets them).
  const { turns, fairShare, prereadBytes } = portDefences({
    capacity: () => pool.limits.max,
    onDelay: (client, share) =>
      events.note('info', 'requests delayed: their client had its fair share of the guest while other clients were active', {
        code: 'client_fair_share',
        client,
        active: share.active,
        share_runs: share.runs,
        share_time: Math.round(share.time * 1000) / 1000,
      }),
    onDeparted: () => departures.note('before_start'),
  });
  const exchangeLimits: ExchangeLimits = {
    bodyTimeoutMs: limits.bodyTimeoutMs,
    sendTimeoutMs: limits.sendTimeoutMs,
    events,
    prereadBytes,
    pieceRate: options.pieceRate,
  };
  options.onFairShare?.(fairShare);
  const context: ExchangeContext = { limits: exchangeLimits, clientAddress: options.clientAddress, fairShare, departures };
  const resets = options.resetRate && new StreamResets(options.resetRate, options.clientAddress ?? peerAddress, exchangeLimits.events);
  const onRequest = (req: NodeRequest, res: NodeResponse) => {
    options.observe?.(req, res);
    // An HTTP/2 stream of a client that resets more streams than its budget is refused before anything (http/stream-resets.ts).
    if (resets && 'stream' in req && !resets.admit(req, res as http2.Http2ServerResponse)) return;
    if (req.httpVersionMajor < 2) {
      const socket = req.socket as net.Socket;
      plainSockets.set(socket, (plainSockets.get(socket) ?? 0) + 1);
      res.once('close', () => {
        const open = (plainSockets.get(socket) ?? 1) - 1;
        if (plainSockets.has(socket)) plainSockets.set(socket, open);
        if (stopping && open === 0) socket.destroy();
      });
      if (stopping) {
        // A request on a kept-alive connection after shutdown began: refuse it and close.
        const plain = res as http.ServerResponse;
        plain.writeHead(503, { connection: 'close', 'retry-after': '1', 'content-type': 'text/plain; charset=utf-8' });
        plain.end('shutting down\n');
        return;
      }
    }
    // Malformed targets and Host values are answered here, before any instance (http/target-gate.ts).
    if (!admitTarget(req, res, logger)) return;
    const run = () => {
      // A client past its limit of exchanges in flight is answered before any instance
      // (admission/client-limit.ts); counted from its turn, so a pipelined request waiting behind
      // its connection's current one does not count.
      const client = options.clientLimit?.admit(req, res);
      if (client?.admitted === false) {
        exchangeLimits.events.note('warn', 'requests refused: their client has too many exchanges in flight', {
          code: 'client_exchange_limit',
          client: client.client,
          limit: options.clientLimit?.limit,
        });
        sendRefusal(req, res, 'client_limit');
        return Promise.resolve();
      }
      return options.cache ? cachedExchange(options.cache, pool, logger, req, res, options.hook, context) : handleExchange(pool, logger, req, res, options.hook, context);
    };
    // A connection's exchanges take turns (admission/pipeline.ts): pipelined HTTP/1.1 requests one
    // at a time; an HTTP/2 connection's ordinary requests a few at a time. An HTTP/2 exchange starts
    // once the rest of its connection's read is parsed, so a stream reset in that read never starts (admission/after-read.ts).
    const done =
      req.httpVersionMajor < 2
        ? turns.run(req.socket, 1, res, run)
        : laneOf(req) === 'request'
          ? turns.run((req as http2.Http2ServerRequest).stream.session ?? req, perSessionLimit(pool.limits.max), res, run, true)
          : afterRead(res, run, () => departures.note('before_start'));
    inFlight.add(done);
    void done.finally(() => inFlight.delete(done));
  };
  // requireHostHeader off: admitTarget answers a missing Host with the JSON error envelope.
  const h1 = http.createServer({ ...http1ServerOptions(limits), requireHostHeader: false }, onRequest);
  trackHttp1Connections(h1, limits, exchangeLimits.events);
  // Streams beyond the limit are refused by Node (RST_STREAM REFUSED_STREAM) before any exchange starts.
  const h2 = http2.createServer({ settings: { maxConcurrentStreams: MAX_CONCURRENT_STREAMS } }, onRequest);
  closeIdleHttp2Sessions(h2, limits);
  const sessions = new Set<http2.ServerHttp2Session>();
  h2.on('session', (session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
    resets?.session(session);
  });
  // What a client may owe before its new connections are read (http/connection-gate.ts).
  const debts: ConnectionDebt[] = [...(options.pieceRate ? [pieceDebt(options.pieceRate, exchangeLimits.events)] : []), ...(resets ? [resets.connectionDebt] : [])];
  // noDelay: http.createServer sets it on the sockets it accepts itself; these come from this
  // server, and without it a head and body written apart wait on the client's delayed ACK (~40 ms).
  const server = net.createServer({ noDelay: true }, (socket) => {
    plainSockets.set(socket, 0);
    socket.once('close', () => plainSockets.delete(socket));
    acceptConnection(socket, { h1, h2, debts, onHttp2: () => plainSockets.delete(socket) });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: options.port, host: options.host, reusePort: options.reusePort ?? false }, () => {
      server.off('error', reject);
      const port = (server.address() as AddressInfo).port;
      resolve({
        port,
        async close(graceMs) {
          stopping = true;
          // Exchanges still waiting for an instance are refused now rather than started late.
          pool.refuseWaiting();
          const closed = new Promise<void>((r) => server.close(() => r()));
          h1.close(); // stops its deadline checks (host/http/limits.ts)
          // Idle kept-alive connections and spare ones that never sent a request go now.
          for (const [socket, open] of plainSockets) if (open === 0) socket.destroy();
          // GOAWAY: HTTP/2 clients open no new streams; open ones may finish within the grace period.
          // A session closes once its streams have: the relay's ended ones get their trailers out first.
          const sessionsClosed = [...sessions].map((session) => new Promise<void>((r) => session.once('close', () => r())));
          for (const session of sessions) session.close();
          const grace = new Promise<void>((r) => setTimeout(r, graceMs).unref());
          await Promise.race([Promise.allSettled([...inFlight, ...sessionsClosed]), grace]);
          for (const socket of plainSockets.keys()) socket.destroy();
          for (const session of sessions) session.destroy();
          await closed;
        },
      });
    });
  });
}
