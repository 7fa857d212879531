/**
 * The component build: the UI's static files embedded, then per variant bundle (esbuild),
 * componentize (componentize-js), and for the Node host transpile (jco, JSPI); for `standalone`
 * the JS component composed with the compiled password component (`wac plug`) into the one
 * component `wasmtime serve` runs. Each step is skipped when its inputs did not change
 * (steps.ts). Used by `npm run build` (scripts/build.ts) and, in a long-lived worker whose
 * compilers stay warm, by `npm run dev` (scripts/dev/).
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { componentize } from '@bytecodealliance/componentize-js';
import { buildStaticAssets, GENERATED_MODULE } from '../static-assets.ts';
import { type BundleGuest, bundleGuest } from '../guest-bundle.ts';
import { installComponentizePatches } from '../componentize-patches.ts';
import { patchCreatedReps, patchDebugLog, patchInstanceStats, patchSubtaskDrop, patchSyncImports } from '../jco-patches.ts';
import { composeWithPasswordHashing, PASSWORD_COMPONENT } from '../wasmtime/compose.ts';
import { jcoTranspile, WASI_WAITING_IMPORTS } from '../jco-transpile.ts';
import { suspendingPlatformImports } from '../../host/app-platform/suspending-imports.ts';
import { recordShape, swapMainCore } from './core-swap.ts';
import { installSpliceCache } from './splice-cache.ts';
import { filesUnder, stepRunner, type StepRunner } from './steps.ts';

/**
 * `profile`: the hosted component with its phase marks kept (src/platform/profile.ts), in
 * build/hosted-profile. `floor`: the `http` benchmark's minimal component for the hosted world
 * (bench/http/floor/minimal.ts), in build/floor; `floor-standalone` the same for the world
 * `wasmtime serve` runs (composed as the service is: wasmtime has no app:platform imports to give).
 */
export type Variant = 'hosted' | 'standalone' | 'profile' | 'floor' | 'floor-standalone';

/** Where a variant's files go under build/. */
const OUT_DIR: Record<Variant, string> = { hosted: 'hosted', standalone: 'standalone', profile: 'hosted-profile', floor: 'floor', 'floor-standalone': 'floor-standalone' };

const isFloor = (variant: Variant): boolean => variant === 'floor' || variant === 'floor-standalone';

/** A variant's entry point: the world's own, but for the floor. */
const entryOf = (root: string, variant: Variant, world: 'hosted' | 'standalone'): string =>
  isFloor(variant) ? join(root, 'bench', 'http', 'floor', 'minimal.ts') : join(root, 'src', `${world}.ts`);

/** Imports that may wait: transpiled as JSPI suspending imports so a waiting guest never blocks the host. */
const ASYNC_IMPORTS = [...WASI_WAITING_IMPORTS, ...suspendingPlatformImports()];

const mb = (n: number) => `${(n / 1_048_576).toFixed(1)} MB`;

export interface BuildOptions {
  /** Run every step, whatever the stamps say. */
  force?: boolean;
  /** Receives each step's line (default: stdout). */
  log?: (line: string) => void;
  /** Bundles the guest (default: a one-off esbuild run; `npm run dev` keeps an incremental one). */
  bundle?: BundleGuest;
}

export interface BuildReport {
  /** The steps that ran (the others were skipped: their inputs had not changed). */
  ran: string[];
}

/** Where the Node host loads a hosted variant from (host/app.ts reads `hosted`'s). */
export function transpiledDir(root: string, variant: Exclude<Variant, 'standalone' | 'floor-standalone'>): string {
  return join(root, 'build', OUT_DIR[variant], 'transpiled');
}

/** componentize-js on a bundle, with the splice cache and the patches installed. */
export async function componentizeBundle(root: string, bundle: string, world: 'hosted' | 'standalone'): Promise<Uint8Array> {
  // The cache first: the patches then apply to a cached splice as to a fresh one.
  await installSpliceCache(root);
  await installComponentizePatches(root);
  const { component } = await componentize({ sourcePath: bundle, witPath: join(root, 'wit'), worldName: world });
  return component;
}

async function buildVariant(root: string, variant: Variant, steps: StepRunner, bundleWith: BundleGuest, ran: string[]): Promise<void> {
  const world = variant === 'standalone' || variant === 'floor-standalone' ? 'standalone' : 'hosted';
  const out = join(root, 'build', OUT_DIR[variant]);
  mkdirSync(out, { recursive: true });
  const bundle = join(out, 'bundle.js');
  const wasm = join(out, 'component.wasm');
  // standalone: the JS component before composition (it imports password-hashing)
  const app = world === 'standalone' ? join(out, 'app.wasm') : wasm;
  const sources = [...filesUnder(join(root, 'src')), ...filesUnder(join(root, 'static')), join(root, 'package-lock.json')];
  if (isFloor(variant)) sources.push(...filesUnder(join(root, 'bench', 'http', 'floor')));
  const step = async (name: string, inputs: readonly string[], outputs: readonly string[], extra: string, work: () => Promise<string>) => {
    if (await steps.step(`${variant}: ${name}`, inputs, outputs, extra, work)) ran.push(`${variant}: ${name}`);
  };

  await step('bundle', [...sources, join(root, 'scripts', 'guest-bundle.ts')], [bundle], variant, async () => {
    await bundleWith(entryOf(root, variant, world), bundle, { profile: variant === 'profile' });
    return `${(statSync(bundle).size / 1024).toFixed(0)} KiB JS`;
  });

  await step('componentize', [bundle, ...filesUnder(join(root, 'wit')), join(root, 'scripts', 'componentize-patches.ts')], [app], variant, async () => {
    const component = await componentizeBundle(root, bundle, world);
    writeFileSync(app, component);
    return `${mb(component.byteLength)} component (world ${world})`;
  });

  if (world === 'standalone') {
    await step('compose', [app, PASSWORD_COMPONENT], [wasm], 'wac plug', async () => {
      composeWithPasswordHashing(app, wasm);
      return `${mb(statSync(wasm).size)} component (password-hashing plugged in)`;
    });
  }

  if (variant === 'standalone' || variant === 'floor-standalone') return;
  const transpiled = transpiledDir(root, variant);
  // What decides jco's output besides the component: the imports made suspending, the scripts that run and patch it.
  const transpileOptions = `${ASYNC_IMPORTS.join(',')};${['jco-transpile.ts', 'jco-patches.ts'].map((f) => readFileSync(join(root, 'scripts', f), 'utf8')).join(';')}`;
  await step('transpile', [wasm], [join(transpiled, 'component.js')], transpileOptions, async () => {
    const component = readFileSync(wasm);
    if (swapMainCore(component, transpiled, transpileOptions)) return 'main core module replaced (the component kept its shape: core-swap.ts)';
    rmSync(transpiled, { recursive: true, force: true });
    await jcoTranspile(wasm, transpiled, ASYNC_IMPORTS);
    const glue = join(transpiled, 'component.js');
    const { code, patched } = patchSyncImports(patchSubtaskDrop(patchInstanceStats(patchCreatedReps(patchDebugLog(readFileSync(glue, 'utf8'))))));
    writeFileSync(glue, code);
    recordShape(component, transpiled, transpileOptions);
    const files = readdirSync(transpiled);
    return `${files.length} files for the Node host (JSPI), ${patched} sync imports on the direct path`;
  });
}

/** Builds the variants of the checkout at `root`; throws on the first step that fails. */
export async function buildComponent(root: string, variants: readonly Variant[], options: BuildOptions = {}): Promise<BuildReport> {
  const steps = stepRunner(root, { force: options.force ?? false, log: options.log ?? ((line) => console.log(line)) });
  const ran: string[] = [];
  // The UI's static files, embedded in every variant's bundle (src/web/generated/, gitignored).
  const generatedAssets = join(root, ...GENERATED_MODULE);
  const clientSources = [...filesUnder(join(root, 'static')), ...filesUnder(join(root, 'src')).filter((f) => f !== generatedAssets), join(root, 'package-lock.json')];
  if (await steps.step('static assets', clientSources, [generatedAssets], '', () => buildStaticAssets(root))) ran.push('static assets');
  for (const v of variants) await buildVariant(root, v, steps, options.bundle ?? bundleGuest, ran);
  return { ran };
}
