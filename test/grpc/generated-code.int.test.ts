/** The contract passes `buf lint` and the committed generated code matches proto/ (npm run gen:proto -- --check). */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../harness/host-process.ts';

describe('generated protobuf code', () => {
  it('is up to date with proto/ and the contract passes buf lint', () => {
    const run = spawnSync(process.execPath, [join(ROOT, 'scripts', 'gen-proto.ts'), '--check'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toContain('src/gen is up to date with proto/');
  });
});
