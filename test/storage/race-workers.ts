/**
 * Runs `workers` writer threads of one worker script against one store, released together
 * through a shared start gate, and returns what each reported. The SQLite and file-store suites
 * use it for real cross-thread races.
 */
import { Worker } from 'node:worker_threads';
import { expect } from 'vitest';

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

/**
 * What a race of `workers` × `count` appends must leave: sequences and revisions 1…n with no gap,
 * and each writer's events in the order it wrote them (payload `{ w, n }`).
 */
export function expectContiguousRace(all: ReadonlyArray<{ sequence: bigint; revision: bigint; payload: string }>, workers: number, count: number): void {
  const total = workers * count;
  expect(all.map((e) => e.sequence)).toEqual(Array.from({ length: total }, (_, i) => BigInt(i + 1)));
  expect(all.map((e) => e.revision)).toEqual(Array.from({ length: total }, (_, i) => BigInt(i + 1)));
  for (let w = 0; w < workers; w++) {
    const mine = all.map((e) => JSON.parse(e.payload) as { w: number; n: number }).filter((p) => p.w === w);
    expect(mine.map((p) => p.n)).toEqual(Array.from({ length: count }, (_, n) => n));
  }
}
