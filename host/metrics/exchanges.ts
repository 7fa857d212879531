/**
 * Counts every HTTP exchange of the service port when its response ends (or its connection
 * closes): method and status, and the time from the request's arrival. A response that never
 * got its head (the client left first, the host cut it) counts with status `none`.
 */
import type { NodeRequest, NodeResponse } from '../net/node-http.ts';
import { methodLabel, type HostMetrics } from './registry.ts';

export type ExchangeObserver = (req: NodeRequest, res: NodeResponse) => void;

export function exchangeObserver(metrics: HostMetrics): ExchangeObserver {
  return (req, res) => {
    const started = performance.now();
    const method = methodLabel(req.method);
    res.once('close', () => {
      metrics.exchanges.inc({ method, status: res.headersSent ? String(res.statusCode) : 'none' });
      metrics.exchangeSeconds.observe({ method }, (performance.now() - started) / 1000);
    });
  };
}
