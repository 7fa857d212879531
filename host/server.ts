/**
 * The HTTP server: every request borrows a guest instance for its exchange.
 * Nothing here blocks the event loop; a guest that waits suspends (JSPI) and others go on.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Exchange, toIncomingRequest, type NodeRequest, type NodeResponse, type ResponseHook } from './exchange.ts';
import { describeError, type HostLogger } from './log.ts';
import type { InstancePool } from './pool.ts';

export interface RunningServer {
  readonly port: number;
  /** Stops accepting, waits up to `graceMs` for in-flight exchanges, then cuts the rest. */
  close(graceMs: number): Promise<void>;
}

const FALLBACK_BODY = JSON.stringify({ error: { code: 'internal', message: 'internal error' } });

/** Makes the response hook of one exchange (the stream relay's, host/relay/hook.ts). */
export type HookFactory = (req: NodeRequest) => ResponseHook;

export function handleExchange(pool: InstancePool, logger: HostLogger, req: NodeRequest, res: NodeResponse, hook?: HookFactory): Promise<void> {
  const exchange = new Exchange(res, hook?.(req));
  const incoming = toIncomingRequest(req, false);
  return pool
    .run((instance) => instance.handle(incoming, exchange.outparam))
    .catch((error: unknown) => {
      logger.log('error', 'the guest trapped while handling a request', { code: 'guest_trap', error: describeError(error), method: req.method });
    })
    .finally(() => {
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

export function startServer(pool: InstancePool, logger: HostLogger, options: { port: number; host: string; hook?: HookFactory }): Promise<RunningServer> {
  const inFlight = new Set<Promise<void>>();
  const server = http.createServer((req, res) => {
    const done = handleExchange(pool, logger, req, res, options.hook);
    inFlight.add(done);
    void done.finally(() => inFlight.delete(done));
  });
  server.keepAliveTimeout = 5_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      const port = (server.address() as AddressInfo).port;
      resolve({
        port,
        async close(graceMs) {
          const closed = new Promise<void>((r) => server.close(() => r()));
          server.closeIdleConnections();
          const grace = new Promise<void>((r) => setTimeout(r, graceMs).unref());
          await Promise.race([Promise.allSettled([...inFlight]), grace]);
          server.closeAllConnections();
          await closed;
        },
      });
    });
  });
}
