/**
 * The operations listener (--metrics-port): a plain HTTP/1.1 server apart from the service
 * port, loopback by default, so metrics and probes never compete with or leak to service traffic.
 *
 *   GET /metrics  Prometheus text format (the whole process: with --workers, every thread summed)
 *   GET /livez    200 while the process runs and its event loop answers
 *   GET /readyz   200 when ready, 503 while a dependency is down or the host is stopping (readiness.ts)
 *
 * Any other `Host` than an IP address, localhost, --metrics-host or --metrics-allowed-hosts gets
 * 421 (host/net/host-header.ts): a web page using DNS rebinding cannot read these from an
 * operator's browser.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostAllowlist } from '../net/host-header.ts';
import { describeError, type HostLogger } from '../log.ts';
import type { ReadinessReport } from './readiness.ts';

/** What the listener serves: a single host's registry and readiness, or a worker group's aggregate. */
export interface OperationsSource {
  scrape(): Promise<{ contentType: string; body: string }>;
  readiness(): Promise<ReadinessReport>;
}

export interface RunningListener {
  readonly port: number;
  close(): Promise<void>;
}

const json = (res: http.ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(`${JSON.stringify(body)}\n`);
};

/** RFC 9110 §15.5.20: 421, this server does not answer for that authority. */
function refuseHost(logger: HostLogger, res: http.ServerResponse): void {
  logger.log('warn', 'operations request for a host name it does not answer', { code: 'metrics_host_refused' });
  json(res, 421, { error: { code: 'misdirected_request', message: 'this listener answers only its own address, localhost and --metrics-allowed-hosts' } });
}

async function answer(source: OperationsSource, logger: HostLogger, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const path = (req.url ?? '/').split('?')[0];
  const routes = ['/metrics', '/livez', '/readyz'];
  if (path === undefined || !routes.includes(path)) return json(res, 404, { error: { code: 'not_found', message: `not found; try ${routes.join(', ')}` } });
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('allow', 'GET, HEAD');
    return json(res, 405, { error: { code: 'method_not_allowed', message: 'method not allowed' } });
  }
  if (path === '/livez') return json(res, 200, { status: 'live' });
  if (path === '/readyz') {
    const report = await source.readiness();
    return json(res, report.ready ? 200 : 503, { status: report.ready ? 'ready' : report.stopping ? 'stopping' : 'not_ready', dependencies: report.dependencies });
  }
  try {
    const { contentType, body } = await source.scrape();
    res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
    res.end(req.method === 'HEAD' ? undefined : body);
  } catch (error) {
    logger.log('error', 'collecting metrics failed', { code: 'metrics_failed', error: describeError(error) });
    json(res, 500, { error: { code: 'internal', message: 'collecting metrics failed' } });
  }
}

export interface OperationsListenerOptions {
  port: number;
  host: string;
  /** Host names answered besides IP literals, localhost and `host` (--metrics-allowed-hosts). */
  allowedHosts?: readonly string[];
}

export function startOperationsListener(source: OperationsSource, options: OperationsListenerOptions, logger: HostLogger): Promise<RunningListener> {
  const hostAllowed = hostAllowlist([options.host, ...(options.allowedHosts ?? [])]);
  const server = http.createServer((req, res) => {
    if (!hostAllowed(req.headers.host)) return refuseHost(logger, res);
    answer(source, logger, req, res).catch((error: unknown) => {
      logger.log('error', 'the operations listener failed', { code: 'metrics_failed', error: describeError(error) });
      if (!res.headersSent) json(res, 500, { error: { code: 'internal', message: 'internal error' } });
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 5_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: options.port, host: options.host }, () => {
      server.off('error', reject);
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
