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
    for (const call of ['installProfileClock(', 'profileStart(', 'profileMark(', 'profileEnd(']) {
      expect(production).not.toContain(call);
      expect(profile).toContain(call);
    }
    expect(profile).toContain('profileMark("import: lease append-and-end")');
  }, 60_000);
});
