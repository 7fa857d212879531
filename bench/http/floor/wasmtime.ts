/**
 * Benchmark target (f): the floor component (minimal.ts) under `wasmtime serve` with the
 * project's flags (scripts/wasmtime/serve-args.ts, instances reused 128 times as
 * `npm run serve:wasmtime` runs them), precompiled like the service's. Built for the world
 * `wasmtime serve` runs (`node scripts/build.ts --variant floor-standalone`, composed with the
 * password component as the service is): a component of the `hosted` world imports the
 * app:platform interfaces, which wasmtime does not provide, even where it calls none of them.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, tempDataDir } from '../../../harness/host-process.ts';
import { untilReady } from '../../../harness/child-output.ts';
import { buildComponent } from '../../../scripts/component/pipeline.ts';
import { wasmtimeServeArgs } from '../../../scripts/wasmtime/serve-args.ts';

const root = join(import.meta.dirname, '..', '..', '..');
const COMPONENT = join(root, 'build', 'floor-standalone', 'component.wasm');
const PRECOMPILED = join(root, 'build', 'floor-standalone', 'component.cwasm');

/** The precompiled floor component, built and compiled again when its sources or the component changed. */
async function precompiled(): Promise<string> {
  await buildComponent(root, ['floor-standalone'], { log: () => undefined });
  if (!existsSync(PRECOMPILED) || statSync(PRECOMPILED).mtimeMs < statSync(COMPONENT).mtimeMs) {
    const temp = `${PRECOMPILED}.${process.pid}`;
    execFileSync('wasmtime', ['compile', COMPONENT, '-o', temp], { stdio: ['ignore', 'inherit', 'inherit'] });
    renameSync(temp, PRECOMPILED);
  }
  return PRECOMPILED;
}

export async function startFloorWasmtime(): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const port = await freePort();
  const config = { port, host: '127.0.0.1', dataDir: tempDataDir('floor-'), transport: 'http' as const, realtime: 'off' as const, instanceReuse: 128 };
  const child = spawn('wasmtime', wasmtimeServeArgs(config, await precompiled(), {}), { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await untilReady(child, [], { name: 'wasmtime', ready: (line) => line.startsWith('Serving HTTP on'), timeoutMs: 120_000 });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}
