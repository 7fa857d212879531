/**
 * Starts a host: storage, pub/sub, the component's instance pool and the HTTP server.
 * `main.ts` calls this for the CLI; tests call it in-process or through the CLI.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { GUEST_ENV } from '../src/contract/environment.ts';
import type { StartupFeature } from '../src/contract/startup-probe.ts';
import type { FairShare } from './admission/fair-share.ts';
import { admissionLimits } from './admission/limits.ts';
import { clientDefences } from './admission/policy.ts';
import { memoryReclaimer } from './admission/reclaim.ts';
import { laneQueues } from './admission/wait-queue.ts';
import { clientAddressOf } from './net/client-address.ts';
import { Departures } from './http/departures.ts';
import { loadComponent } from './guest/component.ts';
import { type HostConfig, serverUrl } from './config.ts';
import { guestEnvironment } from './guest/guest-env.ts';
import { hostImports } from './guest/imports.ts';
import { httpLimits } from './http/limits.ts';
import { describeError, type HostLogger } from './log.ts';
import { exchangeObserver } from './metrics/exchanges.ts';
import { Readiness } from './metrics/readiness.ts';
import { HostMetrics } from './metrics/registry.ts';
import { InstancePool } from './guest/pool.ts';
import { MailDelivery } from './mail/delivery.ts';
import { MailOutbox } from './mail/outbox.ts';
import { mailTransportFor } from './mail/settings.ts';
import { localPubSub } from './pubsub/local.ts';
import type { PubSubBackend } from './pubsub/types.ts';
import { redisPubSub } from './pubsub/redis.ts';
import { postgresPubSub } from './pubsub/postgres.ts';
import { relayHook } from './relay/hook.ts';
import { ResponseCache } from './response-cache/cache.ts';
import { cacheGeneration } from './response-cache/generation.ts';
import { chainHooks, stripPrivateFields } from './response-cache/serve.ts';
import { guestPoller } from './relay/poll.ts';
import { StreamRelay } from './relay/relay.ts';
import { startServer } from './http/server.ts';
import { probeGuestConfiguration } from './guest/startup-probe.ts';
import { maintenanceToken, startMaintenance, type Maintenance } from './maintenance/scheduler.ts';
import { openStorage } from './storage/open.ts';
import { Scrubber } from './storage/scrubber.ts';
import type { StorageBackend } from './storage/types.ts';

export const DEFAULT_COMPONENT_DIR = join(import.meta.dirname, '..', 'build', 'hosted', 'transpiled');

export interface RunningHost {
  readonly port: number;
  readonly pool: InstancePool;
  /** The host-held SSE streams (host/relay/). */
  readonly relay: StreamRelay;
  /** The response cache (host/response-cache/), undefined with --response-cache off. */
  readonly cache: ResponseCache | undefined;
  /** This thread's metrics (host/metrics/), undefined with --metrics-port off. */
  readonly metrics: HostMetrics | undefined;
  /** Whether this host should get traffic: its store (and Redis broker) answer, and it is not stopping. */
  readonly readiness: Readiness;
  /** The maintenance passes (host/maintenance/): on a timer, or one now. */
  readonly maintenance: Maintenance;
  /** What the component said its configuration turns on (the start-up probe), for the start-up line. */
  readonly features: readonly StartupFeature[];
  stop(): Promise<void>;
}

export interface HostOverrides {
  /** Use this storage instead of the one the configuration names (tests wrap a backend to inject delays or faults). */
  storage?: StorageBackend;
  /** Use this broker instead of the one --realtime names (worker threads share one across threads). */
  pubsub?: PubSubBackend;
  componentDir?: string;
  /** Listen with SO_REUSEPORT (a worker thread of host/workers/). */
  reusePort?: boolean;
  /** The `thread` label of this host's event-loop delay metric (a worker's index; default `main`). */
  thread?: string;
  /**
   * The part of the process this host is (1: the CLI; 1/N: one of N worker threads), for the
   * memory budget; unset when embedded in another process (tests), where `auto` means no budget.
   */
  processShare?: number;
}

export async function startHost(config: HostConfig, env: NodeJS.ProcessEnv, logger: HostLogger, overrides: HostOverrides = {}): Promise<RunningHost> {
  const componentDir = overrides.componentDir ?? DEFAULT_COMPONENT_DIR;
  const storage = overrides.storage ?? (await openStorage(config, logger));
  const pubsub =
    overrides.pubsub ??
    (config.realtime === 'redis'
      ? redisPubSub({
          url: serverUrl(config, 'redis'),
          onError: (error: unknown) => logger.log('warn', 'the Redis subscriber failed', { code: 'realtime_subscribe_failed', error: String(error) }),
        })
      : config.realtime === 'postgres'
        ? postgresPubSub({
            url: serverUrl(config, 'postgres'),
            namespace: config.postgresSchema,
            onError: (error: unknown) => logger.log('warn', 'the PostgreSQL listener failed', { code: 'realtime_subscribe_failed', error: describeError(error) }),
          })
        : localPubSub());
  // Only the start-up probe knows it: the guest reports its configuration warnings to that one request.
  const probeToken = randomBytes(16).toString('base64url');
  // Only this host's maintenance requests carry it (host/maintenance/).
  const maintenanceSecret = maintenanceToken();
  const environment: Array<[string, string]> = [...guestEnvironment(config, env), [GUEST_ENV.startupProbeToken, probeToken], [GUEST_ENV.maintenanceToken, maintenanceSecret]];
  const metrics = config.metricsPort === undefined ? undefined : new HostMetrics(overrides.thread ?? 'main');
  const outbox = new MailOutbox(storage.projections);
  let delivery: MailDelivery | undefined;
  const scrubber = new Scrubber(storage, logger);
  const imports = hostImports({ environment, storage, pubsub, logger, metrics, mail: { outbox, queued: () => delivery?.wake() }, scrubber });
  const component = await loadComponent(componentDir);
  const pool = new InstancePool(
    () => component.instantiate(imports),
    {
      min: config.instancesMin,
      max: config.instancesMax,
      maxRequests: config.instanceMaxRequests,
      maxMemoryBytes: config.instanceMaxMemoryMiB * 1_048_576,
      idleMs: config.instanceIdleSeconds * 1000,
      // Ended instances' linear memory is freed only when V8 collects: ask for it (admission/reclaim.ts).
      onInstancesEnded: memoryReclaimer(),
      queues: laneQueues(),
    },
    logger,
  );
  // What an instance costs, measured while warming: the memory budget is divided by it.
  const rssBeforeBytes = process.memoryUsage.rss();
  const rssAfterBytes: number[] = [];
  let linearMemoryBytes = 0;
  await pool.warm((_, instance) => {
    rssAfterBytes.push(process.memoryUsage.rss());
    linearMemoryBytes = instance.stats().memoryBytes;
  });
  pool.setLimits(admissionLimits(config, { rssBeforeBytes, rssAfterBytes, linearMemoryBytes }, overrides.processShare, logger));
  // Idle instances beyond --instances-min leave the pool, so memory comes back when the load stops.
  const idleSweep = config.instanceIdleSeconds > 0 ? setInterval(() => pool.retireIdle(), Math.max(1000, (config.instanceIdleSeconds * 1000) / 4)) : undefined;
  idleSweep?.unref();
  const relay = new StreamRelay({ poll: guestPoller(pool), pubsub, logger });
  // The cheapest read of each dependency: the store's head sequence, the broker's PING.
  const readiness = new Readiness([{ name: 'store', run: () => storage.events.headSequence() }, ...(pubsub.ping ? [{ name: 'realtime', run: () => pubsub.ping?.() }] : [])]);
  const clientAddress = clientAddressOf(config.trustedProxies);
  const { clientLimit, pieceRate, resetRate } = clientDefences(config, clientAddress);
  const departures = new Departures();
  let fairShare: FairShare | undefined;
  metrics?.watch({
    fairShare: () => fairShare?.stats ?? { delayed: 0, waiting: 0, active: 0 },
    pool: () => pool.stats,
    limits: () => pool.limits,
    relay: () => relay.stats,
    dependencies: () => readiness.dependencies(),
    ...(clientLimit ? { clients: () => clientLimit.stats } : {}),
    ...(pieceRate ? { pieces: () => pieceRate.stats } : {}),
    ...(resetRate ? { resets: () => resetRate.stats } : {}),
    departures: () => departures.counts,
  });
  // With the cache on, it strips the guest's private cache fields itself (server.ts); off, this does.
  const hook = (req: Parameters<typeof relayHook>[2]) =>
    config.responseCache === 'on' ? relayHook(relay, logger, req, clientAddress) : chainHooks(stripPrivateFields, relayHook(relay, logger, req, clientAddress));
  const cache =
    config.responseCache === 'on'
      ? new ResponseCache({
          maxEntries: config.responseCacheEntries,
          maxBytes: config.responseCacheBytes,
          streamHeads: storage.streamHeads,
          logger,
          generation: cacheGeneration(componentDir, environment),
        })
      : undefined;
  const server = await startServer(pool, logger, {
    port: config.port,
    host: config.host,
    hook,
    cache,
    reusePort: overrides.reusePort,
    observe: metrics && exchangeObserver(metrics),
    limits: httpLimits(config),
    clientAddress,
    clientLimit,
    pieceRate,
    resetRate,
    departures,
    onFairShare: (share) => {
      fairShare = share;
    },
  });
  let features: StartupFeature[];
  try {
    features = await probeGuestConfiguration(config.host, server.port, logger, probeToken);
    // After the guest's own configuration checks, so their errors are the ones reported first.
    const retryMs = config.mailRetrySeconds * 1000;
    delivery = new MailDelivery(outbox, storage.keyValue, mailTransportFor(config, env, logger), logger, {
      maxAttempts: config.mailMaxAttempts,
      retryMs,
      pollMs: Math.min(retryMs, 5000),
      claimMs: 120_000,
    });
    delivery.start();
  } catch (error) {
    clearInterval(idleSweep);
    cache?.close();
    relay.close();
    await server.close(0);
    await pubsub.close();
    await storage.close();
    throw error;
  }
  const maintenance = startMaintenance({ intervalSeconds: config.maintenanceIntervalSeconds, storage, pool, token: maintenanceSecret, logger, scrubber });
  let stopping: Promise<void> | undefined;
  return {
    port: server.port,
    pool,
    relay,
    cache,
    metrics,
    readiness,
    maintenance,
    features,
    stop() {
      readiness.stop();
      stopping ??= (async () => {
        // Relayed streams end at once; the guest's own requests get the grace period.
        clearInterval(idleSweep);
        relay.close();
        await maintenance.stop();
        await server.close(config.shutdownGraceMs);
        await delivery?.stop();
        scrubber.stop();
        cache?.close();
        await pubsub.close();
        await storage.close();
      })();
      return stopping;
    },
  };
}
