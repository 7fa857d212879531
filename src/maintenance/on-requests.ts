/**
 * Maintenance where no host runs it (`wasmtime serve`: a fresh instance per request, no timer):
 * amortised on requests. After a response, a request that finds no pass due marker claims one
 * with a key-value increment whose TTL is the interval (only the caller that gets 1 runs the
 * pass), so at most one pass runs per interval, by some request's instance after its response.
 * An instance looks at most once per QUIET_MS.
 */
import type { Platform } from '../platform/ports.ts';
import type { MaintenanceReport } from './pass.ts';

const NAMESPACE = 'app-maintenance';
const KEY = 'pass-claimed';
/**
 * An instance that looked at the claim looks again no sooner than this: a reused instance serving
 * a busy stream of requests then reads it about once a second, not once per request (a pass may
 * start up to this much later than its interval says).
 */
const QUIET_MS = 1_000;

export function maintainOnRequests(platform: Platform, intervalSeconds: number, pass: () => MaintenanceReport): () => void {
  if (intervalSeconds <= 0) return () => {};
  const ttl = BigInt(intervalSeconds * 1000);
  const quietMs = Math.min(QUIET_MS, intervalSeconds * 1000);
  /** Until then this instance does not look: it saw the claim taken a moment ago. */
  let quietUntil = -Infinity;
  const run = () => {
    const now = platform.now();
    if (now < quietUntil) return;
    quietUntil = now + quietMs;
    // One read on the requests that look; the increment only when the interval has passed.
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
