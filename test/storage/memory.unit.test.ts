/**
 * The in-memory stores every unit test runs on (src/platform/testing/) against the same storage
 * contract as the real backends, so a unit test's platform behaves as production storage does.
 * The adapter only translates: the memory stores throw the guest's StoreError, which it turns into
 * the host's StorageFailure (a conflict's actual revision read back from the store, which is what
 * a backend reports), and their clock is the wall clock here so that expiry runs in real time.
 * Not run: a second backend over the same storage (the memory stores live in one object; there is
 * no other connection to race on).
 */
import { StorageFailure } from '../../host/storage/errors.ts';
import type { StorageBackend } from '../../host/storage/types.ts';
import { StoreError } from '../../src/errors.ts';
import type { ExpectedRevision, NewEvent } from '../../src/platform/ports.ts';
import { Faults } from '../../src/platform/testing/faults.ts';
import { MemoryEventStore } from '../../src/platform/testing/memory-event-store.ts';
import { MemoryKeyValue } from '../../src/platform/testing/memory-key-value.ts';
import { MemoryProjectionStore } from '../../src/platform/testing/memory-projection-store.ts';
import { runStorageContract } from './contract.ts';

/** `target` with a StoreError from any of its methods turned into the StorageFailure a backend throws. */
function translated<T extends object>(target: T, conflict: (args: unknown[]) => StorageFailure = () => StorageFailure.internal('conflict')): T {
  return new Proxy(target, {
    get(obj, name) {
      const value: unknown = Reflect.get(obj, name, obj);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        try {
          return (value as (...a: unknown[]) => unknown).apply(obj, args);
        } catch (error) {
          if (!(error instanceof StoreError)) throw error;
          throw error.kind === 'conflict' ? conflict(args) : new StorageFailure({ tag: error.kind, val: error.message });
        }
      };
    },
  });
}

function memoryBackend(): StorageBackend {
  const faults = new Faults();
  let events = new MemoryEventStore(faults, Date.now);
  let projections = new MemoryProjectionStore(faults);
  let keyValue = new MemoryKeyValue(faults, Date.now);
  const conflict = (args: unknown[]): StorageFailure => {
    const [streamId, expected] = args as [string, ExpectedRevision, NewEvent[]];
    return StorageFailure.conflict(streamId, expected, events.streamRevision(streamId));
  };
  return {
    name: 'memory',
    get events() {
      return translated(events, conflict);
    },
    get projections() {
      return translated(projections);
    },
    get keyValue() {
      return translated(keyValue);
    },
    // The memory platform's leases grant every turn (one synchronous caller); the lease contract is not run on it.
    leases: { ttlMs: 0, acquire: () => undefined },
    reset() {
      events = new MemoryEventStore(faults, Date.now);
      projections = new MemoryProjectionStore(faults);
      keyValue = new MemoryKeyValue(faults, Date.now);
    },
    close: () => undefined,
  };
}

runStorageContract('memory (the unit tests’ platform)', async () => memoryBackend());
