/**
 * docs/operating.md lists every `code` the host logs or answers with: an operator who greps a log
 * line's code finds what it means there. The codes are read from host/ source (`code: '…'`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, readDoc, tableRows } from './markdown.ts';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .map((file) => join(dir, file));
}

/** Log codes of host/: storage backends' failure codes come from the envelope's closed set, not log lines, so storage/ is left out. */
function hostCodes(): Set<string> {
  const codes = new Set<string>();
  for (const file of sourceFiles(join(ROOT, 'host'))) {
    if (file.includes(`${join('host', 'storage')}/`) && !file.endsWith('open.ts')) continue;
    for (const match of readFileSync(file, 'utf8').matchAll(/\bcode: '([a-z_]+)'/g)) codes.add(match[1]!);
  }
  return codes;
}

describe('docs/operating.md', () => {
  const documented = new Set(
    tableRows(readDoc('docs/operating.md'))
      .flat()
      .flatMap(([first]) => [...(first ?? '').matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!)),
  );

  it('finds the codes it checks (the pattern still matches the source)', () => {
    expect(hostCodes().size).toBeGreaterThan(20);
  });

  it('has a row for every code the host logs', () => {
    expect([...hostCodes()].filter((code) => !documented.has(code)).sort()).toEqual([]);
  });
});
