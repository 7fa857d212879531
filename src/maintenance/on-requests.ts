/**
 * Maintenance where no host runs it (`wasmtime serve`: a fresh instance per request, no timer):
 * amortised on requests. After a response, a request that finds no pass due marker claims one
 * with a key-value increment whose TTL is the interval (only the caller that gets 1 runs the
 * pass), so at most one pass runs per interval, by some request's instance after its response.
 */
import type { Platform } from '../platform/ports.ts';
import type { MaintenanceReport } from './pass.ts';

const NAMESPACE = 'app-maintenance';
const KEY = 'pass-claimed';

export function maintainOnRequests(platform: Platform, intervalSeconds: number, pass: () => MaintenanceReport): () => void {
  if (intervalSeconds <= 0) return () => {};
  const ttl = BigInt(intervalSeconds * 1000);
  const run = () => {
    // One read on most requests; the increment only when the interval has passed.
    if (platform.keyValue.get(NAMESPACE, KEY) !== undefined) return;
    if (platform.keyValue.increment(NAMESPACE, KEY, 1n, ttl) !== 1n) return;
    try {
      platform.logger.log('info', 'maintenance pass done', { code: 'maintenance_pass', ...pass() });
    } catch (error) {
      // The claim stands: the next pass comes an interval later, as on the Node host.
      platform.logger.log('warn', 'maintenance pass failed', { code: 'maintenance_failed', error: error instanceof Error ? error.message : String(error) });
    }
  };
  return () => platform.afterResponse('maintenance', run);
}
