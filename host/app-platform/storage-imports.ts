/** The app:platform storage imports (event-store, projection-store, key-value) over one backend. */
import { StreamTails } from '../leases/stream-tails.ts';
import type { NewEvent, ExpectedRevision, ReadStreamOptions, StorageBackend } from '../storage/types.ts';
import type { HostLogger } from '../log.ts';
import { guard } from './guard.ts';

/** `tails` answers reads of streams this host holds the lease for (lease-imports.ts, ../leases/stream-tails.ts). */
export function storageImports(storage: StorageBackend, logger: HostLogger, tails = new StreamTails()) {
  const { events, projections, keyValue } = storage;
  const g = <A extends unknown[], R>(op: string, fn: (...args: A) => R | Promise<R>) => guard(logger, op, fn);
  return {
    'app:platform/types': {},
    'app:platform/event-store': {
      append: g('append', (streamId: string, expected: ExpectedRevision, list: NewEvent[]) => {
        tails.drop(streamId); // a write outside the lease: the tail no longer knows the stream
        return events.append(streamId, expected, list);
      }),
      readStream: g('read-stream', (streamId: string, options: ReadStreamOptions) => tails.read(streamId, options) ?? events.readStream(streamId, options)),
      streamRevision: g('stream-revision', events.streamRevision.bind(events)),
      readAll: g('read-all', events.readAll.bind(events)),
      headSequence: g('head-sequence', events.headSequence.bind(events)),
      countByType: g('count-by-type', events.countByType.bind(events)),
      removeStream: g('remove-stream', (streamId: string, expected: ExpectedRevision) => {
        tails.drop(streamId);
        return events.removeStream(streamId, expected);
      }),
      truncateBefore: g('truncate-before', (streamId: string, revision: bigint) => {
        tails.drop(streamId);
        return events.truncateBefore(streamId, revision);
      }),
    },
    'app:platform/projection-store': {
      checkpoint: g('checkpoint', projections.checkpoint.bind(projections)),
      commit: g('commit', projections.commit.bind(projections)),
      getDocument: g('get-document', projections.getDocument.bind(projections)),
      listDocuments: g('list-documents', projections.listDocuments.bind(projections)),
    },
    'app:platform/key-value': {
      get: g('kv-get', keyValue.get.bind(keyValue)),
      set: g('kv-set', keyValue.set.bind(keyValue)),
      take: g('kv-take', keyValue.take.bind(keyValue)),
      increment: g('kv-increment', keyValue.increment.bind(keyValue)),
      delete: g('kv-delete', keyValue.delete.bind(keyValue)),
    },
  };
}
