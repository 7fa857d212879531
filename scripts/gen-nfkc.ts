/**
 * `npm run gen:nfkc`: writes src/gen/nfkc-supported.ts, the code points the guest's bundled NFKC
 * (unorm) normalizes exactly as this Node's ICU does (scripts/nfkc-table.ts says how), tagged
 * with Node's Unicode version. `-- --check` writes nothing and fails (exit 1) when the committed
 * table differs; regenerate only on a Node whose Unicode version is at least the table's.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { nfkcTableSource } from './nfkc-table.ts';

const target = join(import.meta.dirname, '..', 'src', 'gen', 'nfkc-supported.ts');

const want = nfkcTableSource();
if (process.argv.includes('--check')) {
  if (!existsSync(target) || readFileSync(target, 'utf8') !== want) {
    console.error(`src/gen/nfkc-supported.ts is stale for Unicode ${process.versions.unicode} (run npm run gen:nfkc and commit the result)`);
    process.exit(1);
  }
  console.log('src/gen/nfkc-supported.ts is up to date');
} else {
  writeFileSync(target, want);
  console.log(`wrote src/gen/nfkc-supported.ts (${want.length} bytes, Unicode ${process.versions.unicode})`);
}
