/**
 * A child process for the file store's crash test: appends batches of 1-4 events to a few
 * streams, projection commits and key-value increments as fast as it can, printing each
 * acknowledged append, until the parent kills it with SIGKILL. Runs under plain Node.
 */
import { openFileStorage } from '../../src/platform/standalone/file-storage.ts';
import { nodeFileSystem } from '../../scripts/wasmtime/node-file-system.ts';

const storage = openFileStorage(nodeFileSystem(process.argv[2]!));
for (let n = 0; ; n++) {
  const stream = `s${n % 3}`;
  const size = 1 + (n % 4);
  const events = Array.from({ length: size }, (_, i) => ({ eventType: 'crash.test', payload: JSON.stringify({ n, i, size }), metadata: '{}' }));
  const recorded = storage.events.append(stream, { tag: 'any' }, events);
  const checkpoint = storage.projections.checkpoint('p');
  storage.projections.commit('p', checkpoint, recorded.at(-1)!.sequence, [{ tag: 'put', val: { collection: 'c', id: 'last', body: String(n) } }]);
  storage.keyValue.increment('ns', 'k', 1n, 600_000n);
  process.stdout.write(`${n}\n`);
}
