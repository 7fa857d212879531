/**
 * A worker thread for the file store's cross-thread race test: its own store instance on the
 * shared directory appends `count` events to one stream with the optimistic loop.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { FileStoreFailure } from '../../src/platform/standalone/failure.ts';
import { openFileStorage } from '../../src/platform/standalone/file-storage.ts';
import { nodeFileSystem } from './node-file-system.ts';

const { dir, stream, count, writer, start } = workerData as { dir: string; stream: string; count: number; writer: number; start: Int32Array };
const storage = openFileStorage(nodeFileSystem(dir));
Atomics.add(start, 0, 1);
Atomics.notify(start, 0);
for (let ready = Atomics.load(start, 0); ready < (start[1] ?? 0); ready = Atomics.load(start, 0)) Atomics.wait(start, 0, ready, 1000);
let conflicts = 0;
for (let n = 0; n < count; n++) {
  for (;;) {
    const revision = storage.events.streamRevision(stream);
    try {
      storage.events.append(stream, { tag: 'exact', val: revision }, [{ eventType: 'counter.incremented', payload: JSON.stringify({ w: writer, n }), metadata: '{}' }]);
      break;
    } catch (error) {
      if (!(error instanceof FileStoreFailure && error.payload.tag === 'conflict')) throw error;
      conflicts++;
    }
  }
}
parentPort?.postMessage({ conflicts });
