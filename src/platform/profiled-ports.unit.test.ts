/** The profiling build's ports: a command's phases come from the port boundary, not from marks in the command routine. */
import { describe, expect, it } from 'vitest';
import { executeCounterCommand } from '../counter/application/execute-command.ts';
import { buildApp } from '../app.ts';
import { parseConfig } from '../config.ts';
import { testCounterDeps } from '../counter/testing.ts';
import { createMemoryPlatform } from './testing/memory-platform.ts';
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
    expect(phases).toEqual(expect.arrayContaining(['POST /x guest code', 'POST /x import: leases#acquire', 'POST /x import: lease#appendAndEnd', 'POST /x import: lease#release']));
  });

  it('counts two suspending import calls per REST POST: the turn with its events, and the append that ends it and announces it', async () => {
    // One clock tick per mark: an import's phase, between two marks, is one microsecond per call.
    let now = 0n;
    const lines: string[] = [];
    installProfileClock(
      () => (now += 1_000n),
      (line) => lines.push(line),
    );
    const app = buildApp(profiledPlatform(createMemoryPlatform()), parseConfig([]));
    for (let i = 0; i < PROFILE_BATCH; i++) {
      profileStart();
      const response = await app.fetch(
        new Request('http://localhost/api/counter/increment', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"amount":1}' }),
      );
      expect(response.status).toBe(200);
      profileEnd('POST');
    }
    const phases = (JSON.parse(lines[0]!) as { phases: Record<string, number[]> }).phases;
    const callsPerPost = Object.fromEntries(
      Object.entries(phases)
        .filter(([name]) => name.startsWith('POST import: '))
        .map(([name, samples]) => [name.slice('POST import: '.length), samples.reduce((a, b) => a + b, 0) / PROFILE_BATCH]),
    );
    // Dropping the lease is a resource drop, not a suspending import (host/app-platform/suspending-imports.ts).
    expect(callsPerPost).toEqual({ 'leases#acquire': 1, 'lease#appendAndEnd': 1, 'lease#release': 1 });
    const suspending = Object.entries(callsPerPost).filter(([name]) => name !== 'lease#release');
    expect(suspending.reduce((sum, [, calls]) => sum + calls, 0)).toBeLessThanOrEqual(2);
  });
});
