/** Maintenance amortised on requests: one pass per interval, and a reused instance looks at its claim about once a second. */
import { describe, expect, it } from 'vitest';
import { createMemoryPlatform } from '../platform/testing/memory-platform.ts';
import { maintainOnRequests } from './on-requests.ts';
import type { MaintenanceReport } from './pass.ts';

describe('maintainOnRequests', () => {
  it('runs one pass per interval, and looks at the claim at most once a second however many requests come', () => {
    const platform = createMemoryPlatform();
    let passes = 0;
    const after = maintainOnRequests(platform, 60, () => {
      passes++;
      return {} as MaintenanceReport;
    });
    const request = () => {
      after();
      platform.respond();
    };
    request();
    expect(passes).toBe(1);
    const looks = platform.faults.calls('get');
    for (let i = 0; i < 50; i++) request(); // within the same second
    expect(platform.faults.calls('get')).toBe(looks);
    platform.clock.advance(1_000);
    request();
    expect(platform.faults.calls('get')).toBe(looks + 1);
    expect(passes).toBe(1); // claimed for the interval
    platform.clock.advance(60_000);
    request();
    expect(passes).toBe(2);
  });
});
