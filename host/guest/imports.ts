/** Assembles every import the hosted component needs: WASI (one module per package) and app:platform. */
import type { HostLogger } from '../log.ts';
import { instrumentImports } from '../metrics/imports.ts';
import type { HostMetrics } from '../metrics/registry.ts';
import { StreamTails } from '../leases/stream-tails.ts';
import { storageImports } from '../app-platform/storage-imports.ts';
import { leaseImports } from '../app-platform/lease-imports.ts';
import { erasureImports } from '../app-platform/erasure-imports.ts';
import { mailImports, type MailSink } from '../app-platform/mail-imports.ts';
import { passwordHashingImports } from '../app-platform/password-hashing-imports.ts';
import { pubsubImports } from '../app-platform/pubsub-imports.ts';
import type { PlatformImports } from '../app-platform/suspending-imports.ts';
import type { PubSubBackend } from '../pubsub/types.ts';
import type { Scrubber } from '../storage/scrubber.ts';
import type { StorageBackend } from '../storage/types.ts';
import { cliImports } from '../wasi/cli.ts';
import { clocksImports } from '../wasi/clocks.ts';
import { filesystemImports } from '../wasi/filesystem.ts';
import { httpImports } from '../wasi/http.ts';
import { ioImports } from '../wasi/io.ts';
import { randomImports } from '../wasi/random.ts';

export function hostImports(options: {
  environment: Array<[string, string]>;
  storage: StorageBackend;
  pubsub: PubSubBackend;
  logger: HostLogger;
  /** Where the guest's mail goes: the durable outbox (host/mail/). */
  mail: MailSink;
  /** Removes what erasures leave in the store's files (host/storage/scrubber.ts). */
  scrubber: Scrubber;
  /** With metrics on, the app:platform imports are timed (host/metrics/imports.ts). */
  metrics?: HostMetrics | undefined;
}): Record<string, unknown> {
  const { metrics } = options;
  const tails = new StreamTails(); // reads answered from what the stream's lease holder knows
  // Typed by the WIT and the suspending-import table: an import that must answer at once cannot return a Promise.
  const pubsub = pubsubImports(options.pubsub, options.logger, metrics && (() => metrics.publishFailures.inc()));
  const platform = {
    ...storageImports(options.storage, options.logger, tails),
    ...leaseImports(
      options.storage.leases,
      options.logger,
      tails,
      options.storage.events,
      metrics &&
        ((appends) => {
          metrics.leaseAppends.inc(appends);
          metrics.leaseStoreAppends.inc();
        }),
      // A command's realtime wake-up, published as the guest's own publish would be.
      (channel, message) => pubsub['app:platform/pubsub'].publish(channel, message),
    ),
    ...pubsub,
    ...passwordHashingImports(options.logger),
    ...mailImports(options.mail, options.logger),
    ...erasureImports(options.scrubber, options.logger),
  } satisfies PlatformImports;
  const imports = {
    ...ioImports,
    ...clocksImports,
    ...randomImports,
    ...cliImports(options.environment),
    ...filesystemImports,
    ...httpImports,
    ...platform,
  };
  return metrics ? instrumentImports(imports, metrics) : imports;
}
