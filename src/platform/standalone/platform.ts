/**
 * The Platform ports for the standalone world (`wasmtime serve`): storage in files on the
 * preopened data directory, no pub/sub, the guest's own clocks.
 */
import type { EventStore, KeyValue, Platform, ProjectionStore } from '../ports.ts';
import { consoleLogger } from '../log.ts';
import { toStoreError } from '../hosted/errors.ts';
import { openFileStorage } from './file-storage.ts';
import { noPubSub } from './pubsub-none.ts';
import { preopenedDirectory, wasiFileSystem } from './wasi-file-system.ts';

/** The guest path the launcher preopens the data directory at (`--dir <data-dir>::/data`). */
export const DATA_DIR_GUEST_PATH = '/data';

/** Rethrows every failure as a StoreError (the store's failures carry a platform-error payload). */
function converted<T extends object>(target: T): T {
  return new Proxy(target, {
    get(obj, name) {
      const value = (obj as Record<string | symbol, unknown>)[name];
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        try {
          return (value as (...a: unknown[]) => unknown).apply(obj, args);
        } catch (error) {
          throw toStoreError(error);
        }
      };
    },
  });
}

export function standalonePlatform(guestPath = DATA_DIR_GUEST_PATH): Platform {
  let storage: ReturnType<typeof openFileStorage> | undefined;
  // Opened on first use: preopens are only reachable once the runtime runs the component.
  const store = () => (storage ??= openFileStorage(wasiFileSystem(preopenedDirectory(guestPath))));
  const lazy = <T extends object>(pick: () => T): T =>
    converted(new Proxy({} as T, { get: (_, name) => (pick() as Record<string | symbol, unknown>)[name] }));
  return {
    events: lazy<EventStore>(() => store().events),
    projections: lazy<ProjectionStore>(() => store().projections),
    keyValue: lazy<KeyValue>(() => store().keyValue),
    pubsub: noPubSub,
    logger: consoleLogger(),
    now: () => Date.now(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  };
}
