/**
 * `npm run gen:openapi`: writes docs/openapi.json from the component's own document builder
 * (src/openapi/document.ts, the valibot schemas the routes validate with).
 * `npm run gen:openapi -- --check` writes nothing and fails (exit 1) when docs/openapi.json
 * differs, i.e. when the committed document is stale (the test suite runs it).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openApiJson } from '../src/openapi/document.ts';

const target = join(import.meta.dirname, '..', 'docs', 'openapi.json');
const want = openApiJson();

if (process.argv.includes('--check')) {
  if (!existsSync(target) || readFileSync(target, 'utf8') !== want) {
    console.error("docs/openapi.json is stale: the routes' schemas changed (run npm run gen:openapi and commit the result)");
    process.exit(1);
  }
  console.log('docs/openapi.json is up to date');
} else {
  writeFileSync(target, want);
  console.log(`wrote docs/openapi.json (${want.length} bytes)`);
}
