/** docs/openapi.json is what the routes' schemas generate now (npm run gen:openapi -- --check). */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../harness/host-process.ts';

describe('docs/openapi.json', () => {
  it('is up to date with the routes (else: npm run gen:openapi, and commit)', () => {
    const run = spawnSync(process.execPath, [join(ROOT, 'scripts', 'gen-openapi.ts'), '--check'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toContain('docs/openapi.json is up to date');
  });
});
