/**
 * Runs `workers` writer threads of one worker script against one store, released together
 * through a shared start gate, and returns what each reported. The SQLite and file-store suites
 * use it for real cross-thread races.
 */
import { Worker } from 'node:worker_threads';

export async function raceWorkers(script: URL, workers: number, workerData: Record<string, unknown>): Promise<Array<{ conflicts: number }>> {
  const start = new Int32Array(new SharedArrayBuffer(8));
  start[1] = workers;
  return Promise.all(
    Array.from(
      { length: workers },
      (_, writer) =>
        new Promise<{ conflicts: number }>((resolve, reject) => {
          const worker = new Worker(script, { workerData: { ...workerData, writer, start } });
          let result: { conflicts: number } | undefined;
          worker.once('message', (message: { conflicts: number }) => (result = message));
          worker.once('error', reject);
          worker.once('exit', (code) => (code === 0 && result ? resolve(result) : reject(new Error(`worker exited ${code}`))));
        }),
    ),
  );
}
