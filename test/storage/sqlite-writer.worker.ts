/**
 * A worker thread for the SQLite cross-thread contention test: opens its own connection to the
 * shared file and appends `count` events to one stream with the optimistic loop. Runs under
 * plain Node (type stripping), not vitest.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { StorageFailure } from '../../host/storage/errors.ts';
import { openSqliteStorage } from '../../host/storage/sqlite/index.ts';

const { path, stream, count, writer, start } = workerData as {
  path: string;
  stream: string;
  count: number;
  writer: number;
  /** [ready workers, total workers]: a barrier so all threads race instead of running one after another */
  start: Int32Array;
};
const storage = openSqliteStorage({ path, busyTimeoutMs: 10_000 });
Atomics.add(start, 0, 1);
Atomics.notify(start, 0);
for (let ready = Atomics.load(start, 0); ready < (start[1] ?? 0); ready = Atomics.load(start, 0)) {
  Atomics.wait(start, 0, ready, 1000);
}
let conflicts = 0;
try {
  for (let n = 0; n < count; n++) {
    for (;;) {
      const revision = storage.events.streamRevision(stream);
      try {
        storage.events.append(stream, { tag: 'exact', val: revision }, [{ eventType: 'counter.incremented', payload: JSON.stringify({ w: writer, n }), metadata: '{}' }]);
        break;
      } catch (error) {
        if (!(error instanceof StorageFailure && error.payload.tag === 'conflict')) throw error;
        conflicts++;
      }
    }
  }
  parentPort?.postMessage({ conflicts });
} finally {
  storage.close();
}
