/** instrumentImports(): app:platform functions and resource methods timed, results and errors unchanged, sync stays sync. */
import { describe, expect, it } from 'vitest';
import { instrumentImports } from './imports.ts';
import { HostMetrics } from './registry.ts';

const series = async (metrics: HostMetrics, name: string) => (await metrics.registry.getSingleMetric(name)?.get())?.values ?? [];
const countOf = async (metrics: HostMetrics, fn: string) =>
  (await series(metrics, 'host_wit_import_duration_seconds')).find((v) => v.labels['function'] === fn && (v as { metricName?: string }).metricName?.endsWith('_count'))?.value;
const errorsOf = async (metrics: HostMetrics, fn: string) => (await series(metrics, 'host_wit_import_errors_total')).find((v) => v.labels['function'] === fn)?.value;

describe('instrumentImports()', () => {
  class Lease {
    readonly #token = 7n;
    token(): bigint {
      return this.#token;
    }
  }
  const wasi = { now: () => 1n };
  const imports = {
    'wasi:clocks/monotonic-clock@0.2.12': wasi,
    'app:platform/event-store': {
      headSequence: () => 3n,
      readAll: async () => ['e'],
      append: () => {
        throw new Error('conflict');
      },
      readStream: () => Promise.reject(new Error('unavailable')),
    },
    'app:platform/stream-lease': { Lease },
  };

  it('times own-interface calls, keeps sync results sync, counts failures, and leaves WASI alone', async () => {
    const metrics = new HostMetrics('main');
    const out = instrumentImports(imports, metrics) as typeof imports;
    expect(out['wasi:clocks/monotonic-clock@0.2.12']).toBe(wasi);
    const store = out['app:platform/event-store'];
    expect(store.headSequence()).toBe(3n);
    await expect(store.readAll()).resolves.toEqual(['e']);
    expect(() => store.append()).toThrow('conflict');
    await expect(store.readStream()).rejects.toThrow('unavailable');
    expect(await countOf(metrics, 'app:platform/event-store#headSequence')).toBe(1);
    expect(await countOf(metrics, 'app:platform/event-store#readAll')).toBe(1);
    expect(await errorsOf(metrics, 'app:platform/event-store#append')).toBe(1);
    expect(await errorsOf(metrics, 'app:platform/event-store#readStream')).toBe(1);
    expect(await errorsOf(metrics, 'app:platform/event-store#readAll')).toBeUndefined();
  });

  it('times resource methods on their own class, keeping private state reachable', async () => {
    const metrics = new HostMetrics('main');
    const out = instrumentImports(imports, metrics) as typeof imports;
    const lease = new out['app:platform/stream-lease'].Lease();
    expect(lease).toBeInstanceOf(Lease);
    expect(lease.token()).toBe(7n);
    expect(await countOf(metrics, 'app:platform/stream-lease#Lease.token')).toBe(1);
  });
});
