/**
 * The standalone store: event store, projection store and key-value over one data directory.
 * Every call is guarded so any filesystem failure surfaces as a platform error (`unavailable`).
 */
import type { EventStore, KeyValue, ProjectionStore } from '../ports.ts';
import { FileEventStore } from './event-log.ts';
import { toFileStoreFailure } from './failure.ts';
import { TEMP_DIR, type FileSystem } from './file-system.ts';
import { FileKeyValue } from './key-value-files.ts';
import { FileProjectionStore } from './projection-log.ts';

export interface FileStorage {
  events: EventStore;
  projections: ProjectionStore;
  keyValue: KeyValue;
  /** Housekeeping maintenance runs: deletes expired key-value files, folds removed event commits, compacts the projection store; returns how many files it removed or emptied. */
  upkeep(): number;
  /** Deletes everything the store wrote (tests; other store instances on the directory must be closed). */
  reset(): void;
}

/** Top-level directories of the on-disk format. */
const STORE_DIRS = ['events', 'projections', 'kv', TEMP_DIR] as const;

function guarded<T extends object>(target: T): T {
  const proto = Object.getPrototypeOf(target) as object;
  const wrapper: Record<string, unknown> = {};
  for (const name of Object.getOwnPropertyNames(proto)) {
    if (name === 'constructor') continue;
    const method = (target as Record<string, unknown>)[name];
    if (typeof method !== 'function') continue;
    wrapper[name] = (...args: unknown[]) => {
      try {
        return (method as (...a: unknown[]) => unknown).apply(target, args);
      } catch (error) {
        throw toFileStoreFailure(error);
      }
    };
  }
  return wrapper as T;
}

export function openFileStorage(fs: FileSystem, now: () => number = () => Date.now()): FileStorage {
  const events = new FileEventStore(fs, now);
  const projections = new FileProjectionStore(fs, now);
  const keyValue = new FileKeyValue(fs, now);
  return {
    events: guarded(events),
    projections: guarded(projections),
    keyValue: guarded(keyValue),
    upkeep: () => guarded(keyValue).sweepExpired() + guarded(events).compact() + guarded(projections).compact(),
    reset() {
      for (const dir of STORE_DIRS) fs.removeTree(dir);
      events.forget();
      projections.forget();
    },
  };
}
