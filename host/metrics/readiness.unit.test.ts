/** Readiness: dependency states, a check that never answers, the cache that bounds store reads, and stopping. */
import { describe, expect, it } from 'vitest';
import { Readiness } from './readiness.ts';

describe('Readiness', () => {
  it('is ready when every dependency answers, and names the one that fails', async () => {
    let storeUp = true;
    const readiness = new Readiness(
      [
        { name: 'store', run: () => (storeUp ? 1n : Promise.reject(new Error('ECONNREFUSED'))) },
        { name: 'realtime', run: () => undefined },
      ],
      { cacheMs: 0 },
    );
    expect(await readiness.report()).toEqual({ ready: true, stopping: false, dependencies: { store: true, realtime: true } });
    storeUp = false;
    expect(await readiness.report()).toEqual({ ready: false, stopping: false, dependencies: { store: false, realtime: true } });
  });

  it('counts a check that throws, or never answers within the timeout, as down', async () => {
    const readiness = new Readiness(
      [
        {
          name: 'store',
          run: () => {
            throw new Error('closed');
          },
        },
        { name: 'realtime', run: () => new Promise(() => undefined) },
      ],
      { timeoutMs: 20 },
    );
    expect(await readiness.report()).toMatchObject({ ready: false, dependencies: { store: false, realtime: false } });
  });

  it('reads each dependency once per cache period, however many probes ask', async () => {
    let reads = 0;
    let now = 0;
    const readiness = new Readiness([{ name: 'store', run: async () => void reads++ }], { cacheMs: 1_000, now: () => now });
    await Promise.all(Array.from({ length: 50 }, () => readiness.report()));
    now = 999;
    await readiness.report();
    expect(reads).toBe(1);
    now = 1_000;
    await readiness.report();
    expect(reads).toBe(2);
  });

  it('is not ready once stopping, without reading the store', async () => {
    let reads = 0;
    const readiness = new Readiness([{ name: 'store', run: () => void reads++ }]);
    readiness.stop();
    expect(await readiness.report()).toEqual({ ready: false, stopping: true, dependencies: {} });
    expect(reads).toBe(0);
  });
});
