/**
 * Builds an OAuth probe component exactly as the build builds the service (esbuild →
 * componentize-js 0.23 → jco transpile with JSPI), into build/oauth-probe/<name>/. Skipped when
 * the inputs did not change. The pure-JS probe (test/oauth/*.component.test.ts and the benchmark)
 * runs the service's own signature code on the `standalone` world; a benchmark's probe may bring
 * its own entry and WIT files, which join a copy of the product's wit/ for its build only.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { componentize } from '@bytecodealliance/componentize-js';
import { bundleGuest } from '../../scripts/guest-bundle.ts';
import { jcoTranspile, WASI_WAITING_IMPORTS } from '../../scripts/jco-transpile.ts';
import { composeWithPasswordHashing, PASSWORD_COMPONENT } from '../../scripts/wasmtime/compose.ts';

const ROOT = join(import.meta.dirname, '..', '..');

export interface ProbeSpec {
  /** The folder under build/oauth-probe/. */
  name: string;
  /** The component's entry (exports `incomingHandler`). */
  entry: string;
  world: string;
  /** WIT files added to the product's package for this build (a world or interface of the probe's own). */
  extraWit?: readonly string[];
}

/** The pure-JS probe: the service's signature code in the `standalone` world (Node host and wasmtime). */
export const PURE_PROBE: ProbeSpec = { name: 'pure', entry: join(import.meta.dirname, 'pure-entry.ts'), world: 'standalone' };

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile() && !/\.test\.tsx?$/.test(f))
    .sort();
}

export interface BuiltProbe {
  /** the component file (for wasmtime) */
  wasm: string;
  /** jco transpile output (for the Node host) */
  transpiled: string;
}

export async function buildProbe(spec: ProbeSpec = PURE_PROBE): Promise<BuiltProbe> {
  const out = join(ROOT, 'build', 'oauth-probe', spec.name);
  const wasm = join(out, 'component.wasm');
  const transpiled = join(out, 'transpiled');
  const extraWit = spec.extraWit ?? [];
  const inputs = [
    PASSWORD_COMPONENT,
    join(ROOT, 'scripts', 'jco-transpile.ts'),
    join(ROOT, 'scripts', 'guest-bundle.ts'),
    ...files(join(ROOT, 'src')),
    ...files(import.meta.dirname),
    ...files(dirname(spec.entry)),
    ...files(join(ROOT, 'wit')),
    ...extraWit,
    join(ROOT, 'package-lock.json'),
  ];
  const hash = createHash('sha256').update(`${spec.entry};${spec.world}`);
  for (const f of inputs) hash.update(f).update(readFileSync(f));
  const digest = hash.digest('hex');
  const stamp = join(out, 'stamp');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === digest && existsSync(join(transpiled, 'component.js'))) return { wasm, transpiled };

  // Build next to the final place, then swap in: parallel test files never see half a build.
  const staging = `${out}.${process.pid}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  let witPath = join(ROOT, 'wit');
  if (extraWit.length > 0) {
    witPath = join(staging, 'wit');
    cpSync(join(ROOT, 'wit'), witPath, { recursive: true });
    for (const file of extraWit) cpSync(file, join(witPath, basename(file)));
  }
  const bundle = join(staging, 'bundle.js');
  await bundleGuest(spec.entry, bundle);
  const { component } = await componentize({ sourcePath: bundle, witPath, worldName: spec.world });
  // For the Node host the JS component as built (the host supplies password-hashing); for wasmtime
  // composed with the password component, as the standalone build does.
  writeFileSync(join(staging, 'app.wasm'), component);
  composeWithPasswordHashing(join(staging, 'app.wasm'), join(staging, 'component.wasm'));
  // The waiting WASI imports are suspending, as in the build (outgoing HTTP waits on poll).
  await jcoTranspile(join(staging, 'app.wasm'), join(staging, 'transpiled'), WASI_WAITING_IMPORTS);
  writeFileSync(join(staging, 'stamp'), digest);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(join(out, '..'), { recursive: true });
  renameSync(staging, out);
  return { wasm, transpiled };
}
