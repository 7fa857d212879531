/**
 * `npm run gen:nfkc`: writes src/text/gen/nfkc-supported.ts, the code points the guest's bundled NFKC
 * (unorm) normalizes exactly as this Node's ICU does (scripts/nfkc-table.ts says how), tagged
 * with Node's Unicode version, and src/text/gen/unorm-lazy.ts, unorm wrapped for loading on first use.
 * `-- --check` writes nothing and fails (exit 1) when a committed file differs; regenerate only
 * on a Node whose Unicode version is at least the table's.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { nfkcTableSource, unormLazySource } from './nfkc-table.ts';

const generated = [
  ['nfkc-supported.ts', nfkcTableSource],
  ['unorm-lazy.ts', unormLazySource],
] as const;

let stale = false;
for (const [name, source] of generated) {
  const target = join(import.meta.dirname, '..', 'src', 'text', 'gen', name);
  const want = source();
  if (process.argv.includes('--check')) {
    if (!existsSync(target) || readFileSync(target, 'utf8') !== want) {
      console.error(`src/text/gen/${name} is stale for Unicode ${process.versions.unicode} and the installed unorm (run npm run gen:nfkc and commit the result)`);
      stale = true;
    } else console.log(`src/text/gen/${name} is up to date`);
  } else {
    writeFileSync(target, want);
    console.log(`wrote src/text/gen/${name} (${want.length} bytes, Unicode ${process.versions.unicode})`);
  }
}
if (stale) process.exit(1);
