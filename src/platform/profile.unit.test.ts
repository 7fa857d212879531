import { describe, expect, it } from 'vitest';
import { installProfileClock, PROFILE_BATCH, profileEnd, profileMark, profileStart } from './profile.ts';

describe('guest phase profile', () => {
  it('does nothing before a clock is installed (unit tests, never the production bundle)', () => {
    expect(() => {
      profileStart();
      profileMark('x');
      profileEnd('GET /');
    }).not.toThrow();
  });

  it('closes each phase at its mark, adds up repeated phases and writes one line per batch', () => {
    let now = 0n;
    const lines: string[] = [];
    installProfileClock(
      () => now,
      (line) => lines.push(line),
    );
    for (let i = 0; i < PROFILE_BATCH; i++) {
      profileStart();
      now += 5_000n; // 5 µs
      profileMark('request');
      now += 20_000n;
      profileMark('command routine');
      now += 100_000n;
      if (i % 2 === 0) profileMark('import: lease acquire');
      now += 10_000n;
      profileMark('command routine');
      profileEnd(i % 2 === 0 ? 'POST /a' : 'POST /b');
      if (i < PROFILE_BATCH - 1) expect(lines).toEqual([]);
    }
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!) as { code: string; exchanges: number; phases: Record<string, number[]> };
    expect(line.code).toBe('guest_profile');
    expect(line.exchanges).toBe(PROFILE_BATCH);
    const a = line.phases;
    // Every series has one value per exchange of the batch; another route's exchanges are 0.
    for (const samples of Object.values(a)) expect(samples).toHaveLength(PROFILE_BATCH);
    expect(a['POST /a request']!.slice(0, 2)).toEqual([5, 0]);
    expect(a['POST /a import: lease acquire']!.slice(0, 2)).toEqual([100, 0]);
    expect(a['POST /a command routine']!.slice(0, 2)).toEqual([30, 0]);
    expect(a['POST /b command routine']!.slice(0, 2)).toEqual([0, 130]);
    expect(a['POST /a total']!.slice(0, 2)).toEqual([135, 0]);
    expect(a['POST /b total']!.slice(0, 2)).toEqual([0, 135]);
  });
});
