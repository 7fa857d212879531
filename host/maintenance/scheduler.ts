/**
 * Maintenance without an operator: every --maintenance-interval seconds the host takes the
 * store lease on one fixed stream name (several hosts sharing a store: one at a time; a host
 * that does not get it at once skips this turn), deletes expired key-value entries the store does
 * not expire by itself, and asks the component for its pass (what to keep and for how long is
 * the application's to say; the host only carries it out through the storage imports); then it
 * scrubs what was removed from the store's files (host/storage/scrubber.ts).
 */
import { randomBytes } from 'node:crypto';
import { requestGuest } from '../guest/guest-request.ts';
import { describeError, type HostLogger } from '../log.ts';
import type { InstancePool } from '../guest/pool.ts';
import type { Scrubber } from '../storage/scrubber.ts';
import type { StorageBackend } from '../storage/types.ts';
import { MAINTENANCE_HEADER, MAINTENANCE_PATH } from '../../src/contract/headers.ts';

/** The stream name whose lease serializes maintenance across hosts (no event is ever appended). */
export const MAINTENANCE_LEASE = 'app-maintenance';

export interface MaintenanceOptions {
  intervalSeconds: number;
  storage: StorageBackend;
  pool: InstancePool;
  /** The guest's APP_MAINTENANCE_TOKEN. */
  token: string;
  logger: HostLogger;
  /** After each pass: what the pass and the expiry removed leaves the store's files too. */
  scrubber?: Scrubber;
}

export interface Maintenance {
  /** One pass now (tests, and the timer); false when another host holds the lease. */
  runOnce(): Promise<boolean>;
  stop(): Promise<void>;
}

export function maintenanceToken(): string {
  return randomBytes(24).toString('base64url');
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function startMaintenance(options: MaintenanceOptions): Maintenance {
  const { storage, pool, token, logger } = options;
  let running: Promise<boolean> | undefined;

  async function pass(): Promise<boolean> {
    const lease = await storage.leases.acquire(MAINTENANCE_LEASE, 0);
    if (lease === undefined) return false;
    // Renewed while the pass runs: the lease time bounds only a host that stopped mid-pass.
    const renewal = setInterval(() => void Promise.resolve(lease.renew()).catch(() => {}), Math.max(100, storage.leases.ttlMs / 3));
    const started = performance.now();
    try {
      const swept = (await storage.keyValue.sweepExpired?.()) ?? 0;
      const answer = await requestGuest(pool, 'POST', MAINTENANCE_PATH, [[MAINTENANCE_HEADER, encoder.encode(token)]]);
      if (answer.status !== 200) throw new Error(`the component answered the maintenance pass with status ${answer.status}`);
      const report = JSON.parse(decoder.decode(answer.body)) as Record<string, unknown>;
      await options.scrubber?.scrub();
      logger.log('info', 'maintenance pass done', { code: 'maintenance_pass', expired_entries: swept, ...report, ms: Math.round(performance.now() - started) });
      return true;
    } finally {
      clearInterval(renewal);
      await lease.release();
    }
  }

  function runOnce(): Promise<boolean> {
    running ??= pass().finally(() => {
      running = undefined;
    });
    return running;
  }

  const timer =
    options.intervalSeconds > 0
      ? setInterval(() => {
          runOnce().catch((error: unknown) => logger.log('warn', 'maintenance pass failed', { code: 'maintenance_failed', error: describeError(error) }));
        }, options.intervalSeconds * 1000)
      : undefined;
  timer?.unref();

  return {
    runOnce,
    async stop() {
      clearInterval(timer);
      await running?.catch(() => {});
    },
  };
}
