/**
 * How guest code is bundled for componentize-js: one ESM file, no Node built-ins, the WIT imports
 * left as imports. The component build, the wasmtime test probes and the OAuth probes share it, so a probe is built
 * exactly as the component is.
 */
import { build } from 'esbuild';

export async function bundleGuest(entry: string, outfile: string): Promise<void> {
  await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    mainFields: ['module', 'main'],
    external: ['wasi:*', 'app:*'],
    outfile,
    minify: false,
    jsx: 'automatic',
    jsxImportSource: 'hono/jsx',
    legalComments: 'none',
    logLevel: 'warning',
  });
}
