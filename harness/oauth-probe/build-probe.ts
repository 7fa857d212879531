/**
 * Builds an OAuth probe component exactly as scripts/build.ts builds the service (esbuild →
 * componentize-js 0.23 → jco transpile with JSPI), into build/oauth-probe/<variant>/. Skipped
 * when the inputs did not change. Used by test/oauth/*.component.test.ts and the benchmark.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { componentize } from '@bytecodealliance/componentize-js';
import { bundleGuest } from '../../scripts/guest-bundle.ts';
import { jcoTranspile, WASI_WAITING_IMPORTS } from '../../scripts/jco-transpile.ts';
import { composeWithPasswordHashing, PASSWORD_COMPONENT } from '../../scripts/wasmtime/compose.ts';

const ROOT = join(import.meta.dirname, '..', '..');

export type ProbeVariant = 'pure' | 'capability';

const VARIANTS: Record<ProbeVariant, { entry: string; world: string }> = {
  pure: { entry: 'pure-entry.ts', world: 'standalone' },
  capability: { entry: 'capability-entry.ts', world: 'signatures-probe' },
};

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

export async function buildProbe(variant: ProbeVariant): Promise<BuiltProbe> {
  const { entry, world } = VARIANTS[variant];
  const out = join(ROOT, 'build', 'oauth-probe', variant);
  const wasm = join(out, 'component.wasm');
  const transpiled = join(out, 'transpiled');
  const inputs = [
    PASSWORD_COMPONENT,
    join(ROOT, 'scripts', 'jco-transpile.ts'),
    join(ROOT, 'scripts', 'guest-bundle.ts'),
    ...files(join(ROOT, 'src')),
    ...files(import.meta.dirname),
    ...files(join(ROOT, 'wit')),
    join(ROOT, 'package-lock.json'),
  ];
  const hash = createHash('sha256').update(variant);
  for (const f of inputs) hash.update(f).update(readFileSync(f));
  const digest = hash.digest('hex');
  const stamp = join(out, 'stamp');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === digest && existsSync(join(transpiled, 'component.js'))) return { wasm, transpiled };

  // Build next to the final place, then swap in: parallel test files never see half a build.
  const staging = `${out}.${process.pid}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const bundle = join(staging, 'bundle.js');
  await bundleGuest(join(import.meta.dirname, entry), bundle);
  const { component } = await componentize({ sourcePath: bundle, witPath: join(ROOT, 'wit'), worldName: world });
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
