/** The profiling build's ports: a command's phases come from the port boundary, not from marks in the command routine. */
import { describe, expect, it } from 'vitest';
import { executeCounterCommand } from '../counter/application/execute-command.ts';
import { testCounterDeps } from '../counter/testing.ts';
import { installProfileClock, PROFILE_BATCH, profileEnd, profileStart } from './profile.ts';
import { profiledPlatform } from './profiled-ports.ts';

describe('profiledPlatform', () => {
  it("marks each import a command makes, and the guest's code between them", async () => {
    let now = 0n;
    const lines: string[] = [];
    installProfileClock(
      () => (now += 1_000n),
      (line) => lines.push(line),
    );
    const plain = testCounterDeps();
    const deps = { ...plain, platform: profiledPlatform(plain.platform) };
    for (let i = 0; i < PROFILE_BATCH; i++) {
      profileStart();
      await executeCounterCommand(deps, { type: 'increment', amount: 1 });
      profileEnd('POST /x');
    }
    const phases = Object.keys((JSON.parse(lines[0]!) as { phases: Record<string, number[]> }).phases);
    expect(phases).toEqual(
      expect.arrayContaining([
        'POST /x guest code',
        'POST /x import: leases#acquire',
        'POST /x import: lease#readNewest',
        'POST /x import: lease#appendAndEnd',
        'POST /x import: lease#release',
        'POST /x import: pubsub#publish',
      ]),
    );
  });
});
