/**
 * The one `jco transpile` of a component for the Node host: JSPI, the host's own WASI shims, and
 * the imports that may wait made suspending. Used by the build and by the test probes' builds.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { transpile } from '@bytecodealliance/jco';

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

/**
 * Transpiles `wasm` into `outDir` (`component.js` + core modules); `asyncImports` become JSPI
 * suspending imports. jco's `transpile` API, in this process: the output is the CLI's (`jco
 * transpile … --instantiation async --async-mode jspi --no-wasi-shim`), and a long-lived process
 * (`npm run dev`'s build worker) keeps jco's compiled bindgen warm: 1-1.5 s a build instead of 3-8 s.
 */
export async function jcoTranspile(wasm: string, outDir: string, asyncImports: readonly string[]): Promise<void> {
  const { files } = await transpile(readFileSync(wasm), {
    name: 'component',
    instantiation: 'async',
    asyncMode: 'jspi',
    asyncImports: [...asyncImports],
    asyncExports: [`wasi:http/incoming-handler@${WASI}#handle`],
  });
  for (const [name, bytes] of Object.entries(files)) {
    const path = join(outDir, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, bytes);
  }
}
