/**
 * Runs a probe component (a test- or benchmark-only component, not the service) under `wasmtime
 * serve` on a free port: a fresh instance per request unless `extraArgs` say otherwise.
 */
import { spawn } from 'node:child_process';
import { freePort } from './host-process.ts';

export async function wasmtimeServe(wasmtimePath: string, wasm: string, extraArgs: readonly string[] = []): Promise<{ url: string; output: string[]; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(wasmtimePath, ['serve', '-S', 'cli=y', '--addr', `127.0.0.1:${port}`, ...extraArgs, wasm], { stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output.push(chunk.toString());
      if (chunk.toString().includes('Serving HTTP')) resolve();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then(() => reject(new Error(`wasmtime exited before serving:\n${output.join('')}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    output,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
