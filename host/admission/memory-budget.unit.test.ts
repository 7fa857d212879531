/**
 * How the instance limit derives from the memory budget: the limit read from cgroup v2, v1 or the
 * machine; the default budget; the instance size from warming; the bounds --instances-max and
 * --instances-min put on it; the streaming share and the queue length.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { defaultBudgetMiB, instanceLimit, instanceSizeMiB, memoryLimit, queueLength, streamingLimit } from './memory-budget.ts';

const MiB = 1_048_576;
const GiB = 1024 * MiB;
const files = (entries: Record<string, string>) => (path: string) => entries[path];

describe('memory budget', () => {
  it('reads the cgroup v2 limit, else v1, else the machine; "max" and v1 near 2^63 mean none', () => {
    expect(memoryLimit(files({ '/sys/fs/cgroup/memory.max': String(GiB) }), 16 * GiB)).toEqual({ bytes: GiB, source: 'cgroup v2' });
    expect(memoryLimit(files({ '/sys/fs/cgroup/memory.max': 'max', '/sys/fs/cgroup/memory/memory.limit_in_bytes': String(2 * GiB) }), 16 * GiB)).toEqual({
      bytes: 2 * GiB,
      source: 'cgroup v1',
    });
    expect(memoryLimit(files({ '/sys/fs/cgroup/memory/memory.limit_in_bytes': '9223372036854771712' }), 16 * GiB)).toEqual({ bytes: 16 * GiB, source: 'machine' });
    expect(memoryLimit(files({}), 16 * GiB)).toEqual({ bytes: 16 * GiB, source: 'machine' });
  });

  it('defaults to half the limit, at most 512 MiB', () => {
    expect(defaultBudgetMiB({ bytes: 24 * GiB, source: 'machine' })).toBe(512);
    expect(defaultBudgetMiB({ bytes: GiB / 2, source: 'cgroup v2' })).toBe(256);
  });

  it('sizes an instance by RSS growth after the first, never below its linear memory', () => {
    expect(instanceSizeMiB({ rssBeforeBytes: 150 * MiB, rssAfterBytes: [190 * MiB, 210 * MiB, 230 * MiB], linearMemoryBytes: 16 * MiB })).toBe(20);
    expect(instanceSizeMiB({ rssBeforeBytes: 150 * MiB, rssAfterBytes: [190 * MiB, 198 * MiB], linearMemoryBytes: 16 * MiB })).toBe(16);
    expect(instanceSizeMiB({ rssBeforeBytes: 150 * MiB, rssAfterBytes: [190 * MiB], linearMemoryBytes: 16 * MiB })).toBe(16);
  });

  it('fits three quarters of (budget - baseline) into instances, within --instances-min and --instances-max', () => {
    expect(instanceLimit({ budgetMiB: 512, baselineMiB: 160, instanceMiB: 16, instancesMax: 1024, instancesMin: 2 })).toBe(16);
    expect(instanceLimit({ budgetMiB: 512, baselineMiB: 160, instanceMiB: 16, instancesMax: 8, instancesMin: 2 })).toBe(8);
    expect(instanceLimit({ budgetMiB: 128, baselineMiB: 160, instanceMiB: 16, instancesMax: 1024, instancesMin: 2 })).toBe(2);
    expect(instanceLimit({ budgetMiB: 128, baselineMiB: 160, instanceMiB: 16, instancesMax: 1024, instancesMin: 0 })).toBe(1);
  });

  it('gives long-lived exchanges half the instances (all on a gRPC-only port) and queues 4 rounds', () => {
    expect([1, 2, 3, 16].map((max) => streamingLimit(max, 'auto'))).toEqual([1, 1, 2, 8]);
    expect(streamingLimit(16, 'auto', true)).toBe(16);
    expect(streamingLimit(16, 40)).toBe(16);
    expect(streamingLimit(16, 0)).toBe(1);
    expect(queueLength(16, 'auto')).toBe(64);
    expect(queueLength(32, 'auto')).toBe(128);
    expect(queueLength(2, 'auto')).toBe(64);
    expect(queueLength(16, 0)).toBe(0);
  });

  it('reads the options: auto or a count, bad values named', () => {
    const config = loadConfig([], {});
    expect(config).toMatchObject({ memoryBudgetMiB: 'auto', instancesStreaming: 'auto', admissionQueue: 'auto', admissionWaitMs: 5000, shutdownGraceMs: 8000 });
    expect(loadConfig(['--memory-budget', '300', '--admission-queue', '0'], { INSTANCES_STREAMING: '4' })).toMatchObject({
      memoryBudgetMiB: 300,
      admissionQueue: 0,
      instancesStreaming: 4,
    });
    expect(() => loadConfig(['--memory-budget', '1G'], {})).toThrow(/--memory-budget \(MEMORY_BUDGET\).*auto or a non-negative integer/);
  });
});
