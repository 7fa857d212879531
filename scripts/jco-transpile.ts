/**
 * The one `jco transpile` invocation for the Node host: JSPI, the host's own WASI shims, and the
 * imports that may wait made suspending. Used by the build and by the test probes' builds.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

export const WASI = '0.2.12';

/** The WASI imports that may wait (outgoing HTTP and streams wait on poll). */
export const WASI_WAITING_IMPORTS = [
  `wasi:io/poll@${WASI}#poll`,
  `wasi:io/poll@${WASI}#[method]pollable.block`,
  ...[
    'input-stream.blocking-read',
    'input-stream.blocking-skip',
    'output-stream.blocking-flush',
    'output-stream.blocking-write-and-flush',
    'output-stream.blocking-write-zeroes-and-flush',
    'output-stream.blocking-splice',
  ].map((m) => `wasi:io/streams@${WASI}#[method]${m}`),
];

/** Transpiles `wasm` into `outDir` (`component.js` + core modules); `asyncImports` become JSPI suspending imports. */
export function jcoTranspile(wasm: string, outDir: string, asyncImports: readonly string[]): void {
  const root = join(import.meta.dirname, '..');
  // The jco CLI is the documented, stable surface for these options.
  execFileSync(
    join(root, 'node_modules', '.bin', 'jco'),
    [
      'transpile',
      wasm,
      '-o',
      outDir,
      '--name',
      'component',
      '--quiet',
      '--no-typescript',
      '--no-wasi-shim',
      '--instantiation',
      'async',
      '--async-mode',
      'jspi',
      '--async-imports',
      ...asyncImports,
      '--async-exports',
      `wasi:http/incoming-handler@${WASI}#handle`,
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
}
