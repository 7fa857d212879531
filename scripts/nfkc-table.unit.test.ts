/** The committed table is what `npm run gen:nfkc` derives from this Node (when its Unicode version is the table's). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NFKC_TABLE_UNICODE } from '../src/gen/nfkc-supported.ts';
import { nfkcTableSource } from './nfkc-table.ts';

describe('src/gen/nfkc-supported.ts', () => {
  it.runIf(process.versions.unicode === NFKC_TABLE_UNICODE)('is up to date with this Node', () => {
    expect(readFileSync(join(import.meta.dirname, '..', 'src', 'gen', 'nfkc-supported.ts'), 'utf8')).toBe(nfkcTableSource());
  });
});
