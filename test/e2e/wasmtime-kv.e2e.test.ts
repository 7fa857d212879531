/**
 * The file store's key-value on the real wasi:filesystem under `wasmtime serve`, raced across
 * parallel instances: of concurrent takes exactly one gets the value (rename), concurrent
 * increments lose nothing (the lock file, its back-off sleeping on wasi:clocks). Uses a test-only
 * component (test/wasmtime/kv-probe.ts) because no product route reaches key-value yet.
 */
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTool } from '../../harness/tools.ts';
import { serveProbe } from '../../harness/wasmtime-probe-build.ts';

const wasmtime = requireTool('wasmtime');

describe.skipIf(!wasmtime)('file store key-value under wasmtime serve', () => {
  let child: ChildProcess;
  let url: string;
  beforeAll(async () => {
    ({ url, child } = await serveProbe(join(import.meta.dirname, '..', 'wasmtime', 'kv-probe.ts'), wasmtime!.path, 'wasmtime-kv-'));
  }, 600_000);
  afterAll(() => {
    child?.kill('SIGKILL');
  });

  const call = async (method: string, path: string) => {
    const response = await fetch(`${url}${path}`, { method });
    expect(response.status).toBe(200);
    return ((await response.json()) as { value: string | null }).value;
  };

  it('set, get, take once', async () => {
    await call('POST', '/set?key=a&value=hello');
    expect(await call('GET', '/get?key=a')).toBe('hello');
    expect(await call('POST', '/take?key=a')).toBe('hello');
    expect(await call('POST', '/take?key=a')).toBeNull();
  });

  it('of 12 concurrent takes in parallel instances exactly one gets the value, each round', async () => {
    for (let round = 0; round < 3; round++) {
      await call('POST', `/set?key=once-${round}&value=secret-${round}`);
      const taken = await Promise.all(Array.from({ length: 12 }, () => call('POST', `/take?key=once-${round}`)));
      expect(taken.filter((v) => v !== null)).toEqual([`secret-${round}`]);
    }
  });

  it('16 clients × 10 concurrent increments in parallel instances → 160', async () => {
    const client = async () => {
      for (let i = 0; i < 10; i++) await call('POST', '/increment?key=counter');
    };
    await Promise.all(Array.from({ length: 16 }, client));
    expect(await call('GET', '/get?key=counter')).toBe('160');
  }, 120_000);
});
