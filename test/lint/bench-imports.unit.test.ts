/**
 * bench/ and harness/ stand on their own: a benchmark takes its load client and statistics from
 * bench/lib/ and its processes (hosts, wasmtime, store servers) from harness/, which the suites
 * use too; neither reaches into test/, so a suite can change its helpers without breaking a
 * benchmark, and no helper exists twice.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const SPECIFIER = /(?:from\s+|import\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

describe('bench/ and harness/ imports', () => {
  it('import nothing from test/', () => {
    const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'bench', 'harness'], { cwd: root, encoding: 'utf8' })
      .split('\n')
      .filter((path) => /\.(ts|tsx|js)$/.test(path));
    expect(files.length).toBeGreaterThan(10);
    const intoTest = files.flatMap((path) =>
      [...readFileSync(join(root, path), 'utf8').matchAll(SPECIFIER)]
        .map((m) => relative(root, resolve(root, dirname(path), m[1]!)))
        .filter((target) => target.startsWith('test/'))
        .map((target) => `${path} imports ${target}`),
    );
    expect(intoTest).toEqual([]);
  });
});
