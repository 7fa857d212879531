/**
 * `npm run build`: builds the component (scripts/component/pipeline.ts): the hosted variant for the
 * Node host by default; `standalone` for `wasmtime serve`; `all` both; `profile` the hosted one
 * with its phase marks kept; `floor` and `floor-standalone` the `http` benchmark's minimal component (bench/http/floor/) for each world. Prints each step and how long it took; skips steps whose inputs did
 * not change (`--force` runs them all).
 *
 *   node scripts/build.ts [--force] [--variant hosted|standalone|all|profile|floor|floor-standalone]
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildComponent, type Variant } from './component/pipeline.ts';
import { MissingTool } from './wasmtime/tools.ts';

const root = join(import.meta.dirname, '..');
const { values } = parseArgs({ options: { force: { type: 'boolean', default: false }, variant: { type: 'string', default: 'hosted' } } });

const started = performance.now();
const variants = values.variant === 'all' ? (['hosted', 'standalone'] as const) : [values.variant as Variant];
console.log(`build (${variants.join(', ')})`);
try {
  await buildComponent(root, variants, { force: values.force });
} catch (error) {
  if (!(error instanceof MissingTool)) throw error;
  console.error(`build stopped: ${error.message}`);
  process.exit(1);
}
console.log(`build done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
