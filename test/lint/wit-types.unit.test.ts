/** The committed WIT declarations of both sides are what jco generates from wit/ now (npm run gen:wit-types -- --check). */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

describe('generated WIT types', () => {
  it('are up to date with wit/ (else: npm run gen:wit-types, and commit)', () => {
    const run = spawnSync(process.execPath, [join(root, 'scripts', 'gen-wit-types.ts'), '--check'], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toContain('the generated WIT types are up to date with wit/');
  });
});
