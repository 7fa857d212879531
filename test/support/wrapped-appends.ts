/**
 * A storage backend whose appends (plain and under a stream lease) go through `append`, for
 * in-process tests that make the store slow or make every writer lose its race. The shared command
 * routine appends through its lease (docs/scaling.md), so wrapping `events.append` alone would miss
 * it; everything else is the wrapped backend's own.
 */
import type { EventStoreBackend, StorageBackend } from '../../host/storage/types.ts';

type Append = EventStoreBackend['append'];

/** `append(original, ...args)` replaces every append; `original` is the store's own for that path. */
export function withAppends(storage: StorageBackend, append: (original: Append, ...args: Parameters<Append>) => ReturnType<Append>): StorageBackend {
  const events = storage.events;
  const plain: Append = (...args) => events.append(...args);
  return {
    ...storage,
    events: {
      readStream: events.readStream.bind(events),
      streamRevision: events.streamRevision.bind(events),
      readAll: events.readAll.bind(events),
      headSequence: events.headSequence.bind(events),
      countByType: events.countByType.bind(events),
      removeStream: events.removeStream.bind(events),
      truncateBefore: events.truncateBefore.bind(events),
      append: (...args) => append(plain, ...args),
    },
    leases: {
      ttlMs: storage.leases.ttlMs,
      acquire: async (streamId, waitMs, tailEvents) => {
        const lease = await storage.leases.acquire(streamId, waitMs, tailEvents);
        if (lease === undefined) return undefined;
        return {
          token: lease.token,
          ...(lease.reusable === undefined ? {} : { reusable: lease.reusable }),
          ...(lease.tail === undefined ? {} : { tail: lease.tail }),
          release: () => lease.release(),
          renew: () => lease.renew(),
          // An append asked to end the lease ends it whether it wrote or not (HeldLease.append),
          // also when the replacement throws before reaching the store's own.
          append: async (expected, list, options) => {
            try {
              return await append((_streamId, e, l) => lease.append(e, l, options), streamId, expected, list);
            } finally {
              if (options?.release) await lease.release();
            }
          },
        };
      },
    },
  };
}
