/**
 * The Platform ports for the standalone world (`wasmtime serve`): storage in files on the
 * preopened data directory, no pub/sub, the guest's own clocks, password hashing from the
 * composed password component, mail queued in the file store (delivered by `npm run mail:drain`).
 */
import type { AfterResponse } from '../after-response.ts';
import type { EventStore, KeyValue, Platform, ProjectionStore } from '../ports.ts';
import { consoleLogger } from '../log.ts';
import { nfkcInGuest, witPasswordHashing } from '../password-hashing.ts';
import { toStoreError } from '../hosted/errors.ts';
import { openFileStorage } from './file-storage.ts';
import { fileStoreMailer } from './mail-outbox.ts';
import { noPubSub } from './pubsub-none.ts';
import { unfencedLeases } from '../leases/unfenced-leases.ts';
import { preopenedDirectory, wasiFileSystem } from './wasi-file-system.ts';

/** The guest path the launcher preopens the data directory at (`--dir <data-dir>::/data`). */
const DATA_DIR_GUEST_PATH = '/data';

/**
 * A port whose calls resolve `pick()` at call time (the store opens on first use) and rethrow
 * every failure, opening included, as a StoreError (the store's failures carry a platform-error payload).
 */
function lazyPort<T extends object>(pick: () => T): T {
  return new Proxy({} as T, {
    get:
      (_, name) =>
      (...args: unknown[]) => {
        try {
          const target = pick() as Record<string | symbol, unknown>;
          return (target[name] as (...a: unknown[]) => unknown).apply(target, args);
        } catch (error) {
          throw toStoreError(error);
        }
      },
  });
}

/** `afterResponse`: where work that waits for the response goes (the entry point drains it, src/standalone.ts). */
export function standalonePlatform(afterResponse: AfterResponse, guestPath = DATA_DIR_GUEST_PATH): Platform {
  let storage: ReturnType<typeof openFileStorage> | undefined;
  // Opened on first use: preopens are only reachable once the runtime runs the component.
  const store = () => (storage ??= openFileStorage(wasiFileSystem(preopenedDirectory(guestPath))));
  const events = lazyPort<EventStore>(() => store().events);
  const projections = lazyPort<ProjectionStore>(() => store().projections);
  return {
    events,
    leases: unfencedLeases(events),
    projections,
    keyValue: lazyPort<KeyValue>(() => store().keyValue),
    pubsub: noPubSub,
    passwords: witPasswordHashing(nfkcInGuest),
    mail: fileStoreMailer(projections, () => Date.now()),
    logger: consoleLogger(),
    now: () => Date.now(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    afterResponse: (key, task) => afterResponse.defer(key, task),
    storeUpkeep: () => {
      try {
        return store().upkeep();
      } catch (error) {
        throw toStoreError(error);
      }
    },
    // Removed data's leftovers in the file store are older versions in its logs: compaction drops them.
    scrubRemoved: () => {
      try {
        store().upkeep();
      } catch (error) {
        throw toStoreError(error);
      }
    },
  };
}
