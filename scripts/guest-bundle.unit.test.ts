import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleGuest } from './guest-bundle.ts';

const dir = mkdtempSync(join(tmpdir(), 'guest-bundle-'));
const entry = join(import.meta.dirname, '..', 'src', 'hosted.ts');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the guest bundle and the phase marks', () => {
  it('drops every GUEST_PROFILE statement from the production bundle, keeps them in the profiling one', async () => {
    await bundleGuest(entry, join(dir, 'hosted.js'));
    await bundleGuest(entry, join(dir, 'profile.js'), { profile: true });
    const production = readFileSync(join(dir, 'hosted.js'), 'utf8');
    const profile = readFileSync(join(dir, 'profile.js'), 'utf8');
    for (const call of ['installProfileClock(', 'profileStart(', 'profileMark(', 'profileEnd(', 'profiledPlatform(']) {
      expect(production).not.toContain(call);
      expect(profile).toContain(call);
    }
    // The ports are wrapped at their boundary; the production bundle keeps nothing of the wrapper.
    expect(profile).toContain('"lease#appendAndEnd"');
    expect(production).not.toContain('lease#appendAndEnd');
  }, 60_000);

  it('keeps no mark in the command routine: its imports are marked at the port boundary (src/platform/profiled-ports.ts)', () => {
    expect(readFileSync(join(import.meta.dirname, '..', 'src', 'counter', 'application', 'execute-command.ts'), 'utf8')).not.toContain('GUEST_PROFILE');
  });
});
