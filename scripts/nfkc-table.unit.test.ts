/** The committed files are what `npm run gen:nfkc` derives from this Node (the table: when its Unicode version is the table's) and the installed unorm. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inCi } from '../harness/tools.ts';
import { NFKC_TABLE_UNICODE } from '../src/text/gen/nfkc-supported.ts';
import { nfkcTableSource, unormLazySource } from './nfkc-table.ts';

describe('src/text/gen/nfkc-supported.ts', () => {
  // Every code point compared between Node's ICU and unorm, synchronously: 123 s beside other suites (load 26); the limit guards against a hang only.
  // Another Node's Unicode cannot check the table locally; under CI=true (the pinned Node) that is a failure, not a skip.
  it.runIf(process.versions.unicode === NFKC_TABLE_UNICODE || inCi)('is up to date with this Node', { timeout: 600_000 }, () => {
    expect(readFileSync(join(import.meta.dirname, '..', 'src', 'text', 'gen', 'nfkc-supported.ts'), 'utf8')).toBe(nfkcTableSource());
  });

  it('src/text/gen/unorm-lazy.ts wraps the installed unorm', () => {
    expect(readFileSync(join(import.meta.dirname, '..', 'src', 'text', 'gen', 'unorm-lazy.ts'), 'utf8')).toBe(unormLazySource());
  });
});
