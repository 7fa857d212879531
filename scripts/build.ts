/**
 * `npm run build`: bundle src/ with esbuild, componentize with componentize-js, transpile with
 * jco for the Node host (JSPI); for `standalone`, compose the JS component with the compiled
 * password component (`wac plug`) into the one component `wasmtime serve` runs. Each step hashes
 * its inputs and is skipped when they did not change. Prints what it did and how long it took.
 *
 *   node scripts/build.ts [--force] [--variant hosted|standalone|all|profile]
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { componentize } from '@bytecodealliance/componentize-js';
import { buildStaticAssets, GENERATED_MODULE } from './static-assets.ts';
import { bundleGuest } from './guest-bundle.ts';
import { installComponentizePatches } from './componentize-patches.ts';
import { patchCreatedReps, patchDebugLog, patchInstanceStats, patchSubtaskDrop, patchSyncImports } from './jco-patches.ts';
import { composeWithPasswordHashing, PASSWORD_COMPONENT } from './wasmtime/compose.ts';
import { MissingTool } from './wasmtime/tools.ts';
import { jcoTranspile, WASI_WAITING_IMPORTS } from './jco-transpile.ts';
import { suspendingPlatformImports } from '../host/app-platform/suspending-imports.ts';

const root = join(import.meta.dirname, '..');
const { values } = parseArgs({ options: { force: { type: 'boolean', default: false }, variant: { type: 'string', default: 'hosted' } } });

/** Imports that may wait: transpiled as JSPI suspending imports so a waiting guest never blocks the host. */
const ASYNC_IMPORTS = [...WASI_WAITING_IMPORTS, ...suspendingPlatformImports()];

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile() && !/\.test\.tsx?$/.test(f))
    .sort();
}

function hashOf(files: string[], extra: string): string {
  const h = createHash('sha256').update(extra);
  for (const f of files) h.update(relative(root, f)).update(readFileSync(f));
  return h.digest('hex');
}

/** Runs `work` unless the stamp says its inputs and outputs are unchanged. */
async function step(name: string, inputs: string[], outputs: string[], extra: string, work: () => Promise<string>): Promise<void> {
  const stampFile = join(root, 'build', '.stamps', `${name}.sha256`);
  const hash = hashOf(inputs, extra);
  const upToDate = !values.force && outputs.every((o) => existsSync(o)) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === hash;
  if (upToDate) {
    console.log(`  ${name.padEnd(24)} skipped (inputs unchanged)`);
    return;
  }
  const started = performance.now();
  const detail = await work();
  mkdirSync(join(root, 'build', '.stamps'), { recursive: true });
  writeFileSync(stampFile, hash);
  console.log(`  ${name.padEnd(24)} ${((performance.now() - started) / 1000).toFixed(1).padStart(5)} s  ${detail}`);
}

const mb = (n: number) => `${(n / 1_048_576).toFixed(1)} MB`;

/** `profile`: the hosted component with its phase marks kept (src/platform/profile.ts), in build/hosted-profile. */
type Variant = 'hosted' | 'standalone' | 'profile';

async function buildVariant(variant: Variant): Promise<void> {
  const world = variant === 'profile' ? 'hosted' : variant;
  const out = join(root, 'build', variant === 'profile' ? 'hosted-profile' : variant);
  mkdirSync(out, { recursive: true });
  const bundle = join(out, 'bundle.js');
  const wasm = join(out, 'component.wasm');
  // standalone: the JS component before composition (it imports password-hashing)
  const app = variant === 'standalone' ? join(out, 'app.wasm') : wasm;
  const transpiled = join(out, 'transpiled');
  const sources = [...filesUnder(join(root, 'src')), ...filesUnder(join(root, 'static')), join(root, 'package-lock.json')];

  await step(`${variant}: bundle`, [...sources, join(root, 'scripts', 'guest-bundle.ts')], [bundle], variant, async () => {
    await bundleGuest(join(root, 'src', `${world}.ts`), bundle, { profile: variant === 'profile' });
    return `${(statSync(bundle).size / 1024).toFixed(0)} KiB JS`;
  });

  await step(`${variant}: componentize`, [bundle, ...filesUnder(join(root, 'wit')), join(root, 'scripts', 'componentize-patches.ts')], [app], variant, async () => {
    await installComponentizePatches(root);
    const { component } = await componentize({ sourcePath: bundle, witPath: join(root, 'wit'), worldName: world });
    writeFileSync(app, component);
    return `${mb(component.byteLength)} component (world ${world})`;
  });

  if (variant === 'standalone') {
    await step(`${variant}: compose`, [app, PASSWORD_COMPONENT], [wasm], 'wac plug', async () => {
      composeWithPasswordHashing(app, wasm);
      return `${mb(statSync(wasm).size)} component (password-hashing plugged in)`;
    });
  }

  if (world !== 'hosted') return;
  await step(
    `${variant}: transpile`,
    [wasm],
    [join(transpiled, 'component.js')],
    `${ASYNC_IMPORTS.join(',')};${['jco-transpile.ts', 'jco-patches.ts'].map((f) => readFileSync(join(root, 'scripts', f), 'utf8')).join(';')}`,
    async () => {
      rmSync(transpiled, { recursive: true, force: true });
      jcoTranspile(wasm, transpiled, ASYNC_IMPORTS);
      const glue = join(transpiled, 'component.js');
      const { code, patched } = patchSyncImports(patchSubtaskDrop(patchInstanceStats(patchCreatedReps(patchDebugLog(readFileSync(glue, 'utf8'))))));
      writeFileSync(glue, code);
      const files = readdirSync(transpiled);
      return `${files.length} files for the Node host (JSPI), ${patched} sync imports on the direct path`;
    },
  );
}

const started = performance.now();
const variants = values.variant === 'all' ? (['hosted', 'standalone'] as const) : [values.variant as Variant];
console.log(`build (${variants.join(', ')})`);
// The UI's static files, embedded in every variant's bundle (src/web/generated/, gitignored).
const generatedAssets = join(root, ...GENERATED_MODULE);
const clientSources = [...filesUnder(join(root, 'static')), ...filesUnder(join(root, 'src')).filter((f) => f !== generatedAssets), join(root, 'package-lock.json')];
await step('static assets', clientSources, [generatedAssets], '', () => buildStaticAssets(root));
try {
  for (const v of variants) await buildVariant(v);
} catch (error) {
  if (!(error instanceof MissingTool)) throw error;
  console.error(`build stopped: ${error.message}`);
  process.exit(1);
}
console.log(`build done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
