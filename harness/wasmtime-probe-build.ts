/**
 * Builds a test-only entry (test/wasmtime/*.ts) into a standalone-world component, composes it with
 * the password component as the standalone build does, and precompiles it for wasmtime, cached under build/test-probes/<entry>/ by the hash of the bundle and the
 * wasmtime version (one test file per probe, so no lock is needed).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { componentize } from '@bytecodealliance/componentize-js';
import { bundleGuest } from '../scripts/guest-bundle.ts';
import { ROOT, wasmtimeVersion } from '../scripts/wasmtime/prepare.ts';
import { composeWithPasswordHashing, PASSWORD_COMPONENT } from '../scripts/wasmtime/compose.ts';
import { freePort, tempDataDir } from './host-process.ts';

export async function buildProbe(entry: string, wasmtime = 'wasmtime'): Promise<string> {
  const out = join(ROOT, 'build', 'test-probes', basename(entry, '.ts'));
  mkdirSync(out, { recursive: true });
  const bundle = join(out, 'bundle.js');
  await bundleGuest(entry, bundle);
  const key = createHash('sha256').update(readFileSync(bundle)).update(readFileSync(PASSWORD_COMPONENT)).update(wasmtimeVersion(wasmtime)).digest('hex');
  const cwasm = join(out, 'component.cwasm');
  const stamp = `${cwasm}.sha256`;
  if (existsSync(cwasm) && existsSync(stamp) && readFileSync(stamp, 'utf8') === key) return cwasm;
  const { component } = await componentize({ sourcePath: bundle, witPath: join(ROOT, 'wit'), worldName: 'standalone' });
  const app = join(out, 'app.wasm');
  writeFileSync(app, component);
  const wasm = join(out, 'component.wasm');
  composeWithPasswordHashing(app, wasm);
  const temp = `${cwasm}.${process.pid}.tmp`;
  execFileSync(wasmtime, ['compile', wasm, '-o', temp], { stdio: ['ignore', 'inherit', 'inherit'] });
  renameSync(temp, cwasm);
  writeFileSync(stamp, key);
  return cwasm;
}

/**
 * Builds the probe `entry` and serves it under `wasmtime serve` on a free loopback port with a fresh
 * data directory mounted at /data; resolves once wasmtime says it is serving. Kill `child` after.
 */
export async function serveProbe(entry: string, wasmtime: string, dataPrefix: string): Promise<{ url: string; child: ChildProcess }> {
  const component = await buildProbe(entry, wasmtime);
  const port = await freePort();
  const child = spawn(wasmtime, ['serve', '-S', 'cli=y', '--allow-precompiled', '--addr', `127.0.0.1:${port}`, '--dir', `${tempDataDir(dataPrefix)}::/data`, component], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => chunk.toString().includes('Serving HTTP') && resolve());
    child.once('exit', (code) => reject(new Error(`wasmtime exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, child };
}
