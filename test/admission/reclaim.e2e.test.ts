/**
 * Retired instances give their memory back: 24 instances held at once (SSE streams the guest
 * holds, --stream-relay off), then released and retired as idle. A WebAssembly memory is freed
 * only when V8 collects its object, which an idle host never did (RSS stayed at 1.59 GB after
 * 100 retirements); the host now asks for a collection once instances ended.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type HostProcess } from '../../harness/host-process.ts';
import { holdStream, residentMiB } from './overload.ts';

const HELD = 24;

const until = async (condition: () => boolean, ms: number) => {
  const deadline = performance.now() + ms;
  while (!condition() && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  return condition();
};

describe('retired guest instances', () => {
  let host: HostProcess;
  beforeAll(async () => {
    host = await startHost({
      args: [
        '--stream-relay',
        'off',
        '--memory-budget',
        '0',
        '--instances-min',
        '1',
        '--instances-max',
        String(HELD),
        '--instances-streaming',
        String(HELD),
        '--instance-idle-seconds',
        '1',
      ],
    });
  });
  afterAll(async () => {
    await host?.kill();
  });

  it('give their memory back once retired, without waiting for more load', async () => {
    const start = residentMiB(host);
    const streams = await Promise.all(Array.from({ length: HELD }, () => holdStream(host.port)));
    const loaded = residentMiB(host);
    expect(loaded - start).toBeGreaterThan(HELD * 8);
    for (const stream of streams) stream.destroy();
    const retired = () => host.logs().filter((l) => l.code === 'guest_instance_retired' && l.reason === 'idle').length;
    expect(await until(() => retired() >= HELD - 1, 15_000)).toBe(true);
    // Most of what the instances took is back within a few seconds of their retirement.
    const back = await until(() => residentMiB(host) - start < (loaded - start) / 3, 8_000);
    expect({ start, loaded, now: residentMiB(host), back }).toMatchObject({ back: true });
  });
});
