/**
 * A worker thread for the file store's cross-thread race tests: its own store instance on the
 * shared directory makes `count` writes with the optimistic loop, either appends to one stream
 * (`kind: 'events'`) or projection commits that read-modify-write one shared document and put
 * the writer's own (`kind: 'projection'`), or (`kind: 'churn'`) appends three commits to a stream
 * of its own, removes it and folds, over and over, while the others write.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { FileStoreFailure } from '../../src/platform/standalone/failure.ts';
import { openFileStorage } from '../../src/platform/standalone/file-storage.ts';
import { nodeFileSystem } from '../../scripts/wasmtime/node-file-system.ts';

const { dir, stream, count, writer, start, kind } = workerData as {
  dir: string;
  stream: string;
  count: number;
  writer: number;
  start: Int32Array;
  kind?: 'events' | 'projection' | 'churn';
};
const storage = openFileStorage(nodeFileSystem(dir));
Atomics.add(start, 0, 1);
Atomics.notify(start, 0);
for (let ready = Atomics.load(start, 0); ready < (start[1] ?? 0); ready = Atomics.load(start, 0)) Atomics.wait(start, 0, ready, 1000);
let conflicts = 0;
function commitProjection(n: number): boolean {
  const checkpoint = storage.projections.checkpoint(stream);
  const shared = storage.projections.getDocument({ collection: 'views', id: stream });
  const total = shared ? (JSON.parse(shared.body) as number) : 0;
  return storage.projections.commit(stream, checkpoint, checkpoint + 1n, [
    { tag: 'put', val: { collection: 'views', id: stream, body: JSON.stringify(total + 1) } },
    { tag: 'put', val: { collection: 'writers', id: `w${writer}`, body: JSON.stringify(n) } },
  ]);
}

for (let n = 0; n < count; n++) {
  if (kind === 'churn') {
    const gone = `gone-${writer}-${n}`;
    for (let i = 0; i < 3; i++) storage.events.append(gone, { tag: 'any' }, [{ eventType: 'counter.churned', payload: '{}', metadata: '{}' }]);
    // Not the newest commit when removed: another thread finishing the newest commit's index
    // while the stream's revision files go is a race of removal itself, not of the fold.
    storage.events.append(`tail-${writer}`, { tag: 'any' }, [{ eventType: 'counter.tail', payload: '{}', metadata: '{}' }]);
    storage.events.removeStream(gone, { tag: 'any' });
    storage.upkeep();
    continue;
  }
  if (kind === 'projection') {
    while (!commitProjection(n)) conflicts++;
    continue;
  }
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
