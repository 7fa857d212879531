/**
 * Builds a test-only entry (test/wasmtime/*.ts) into a standalone-world component and precompiles
 * it for wasmtime, cached under build/test-probes/<entry>/ by the hash of the bundle and the
 * wasmtime version (one test file per probe, so no lock is needed).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { componentize } from '@bytecodealliance/componentize-js';
import { bundleGuest } from '../../scripts/guest-bundle.ts';
import { ROOT, wasmtimeVersion } from '../../scripts/wasmtime/prepare.ts';

export async function buildProbe(entry: string, wasmtime = 'wasmtime'): Promise<string> {
  const out = join(ROOT, 'build', 'test-probes', basename(entry, '.ts'));
  mkdirSync(out, { recursive: true });
  const bundle = join(out, 'bundle.js');
  await bundleGuest(entry, bundle);
  const key = createHash('sha256').update(readFileSync(bundle)).update(wasmtimeVersion(wasmtime)).digest('hex');
  const cwasm = join(out, 'component.cwasm');
  const stamp = `${cwasm}.sha256`;
  if (existsSync(cwasm) && existsSync(stamp) && readFileSync(stamp, 'utf8') === key) return cwasm;
  const { component } = await componentize({ sourcePath: bundle, witPath: join(ROOT, 'wit'), worldName: 'standalone' });
  const wasm = join(out, 'component.wasm');
  writeFileSync(wasm, component);
  const temp = `${cwasm}.${process.pid}.tmp`;
  execFileSync(wasmtime, ['compile', wasm, '-o', temp], { stdio: ['ignore', 'inherit', 'inherit'] });
  renameSync(temp, cwasm);
  writeFileSync(stamp, key);
  return cwasm;
}
