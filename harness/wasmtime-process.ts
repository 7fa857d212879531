/**
 * Starts the standalone component under the real `wasmtime serve` on a free port with a temp
 * data directory, exactly as `npm run serve:wasmtime` runs it (same argument builder), for
 * end-to-end tests. The child is wasmtime itself, so `kill()` is a real `kill -9` of the runtime.
 *
 *   const wasmtime = requireTool('wasmtime');
 *   describe.skipIf(!wasmtime)('…', () => {
 *     beforeAll(() => prepareWasmtimeComponent(), 600_000);   // build + wasmtime compile, once
 *     it('…', async () => { const server = await startWasmtime(); … await server.stop(); });
 *   });
 */
import { spawn } from 'node:child_process';
import { prepareStandalone } from '../scripts/wasmtime/prepare.ts';
import { guestLogLine } from '../scripts/wasmtime/output.ts';
import { type ServerProcess, serverParts, untilReady } from './child-output.ts';
import { wasmtimeServeArgs } from '../scripts/wasmtime/serve-args.ts';
import { onFreePort, tempDataDir } from './host-process.ts';

/** `output` has wasmtime's per-request prefix removed (the guest's JSON logs are on stdout); `kill()` is a kill -9 of the runtime. */
export interface WasmtimeProcess extends ServerProcess {
  /** SIGTERM and wait for exit. */
  stop(): Promise<void>;
}

export interface WasmtimeStartOptions {
  dataDir?: string;
  port?: number;
  realtime?: 'polling' | 'off';
  instanceReuse?: number;
  /** Extra guest variables, passed with --env NAME=VALUE after the launcher's own (later wins). */
  guestEnv?: Record<string, string>;
  timeoutMs?: number;
}

let prepared: string | undefined;

/** Builds (when sources changed) and precompiles the standalone component; returns the .cwasm path. */
export function prepareWasmtimeComponent(wasmtimePath = 'wasmtime'): string {
  prepared ??= prepareStandalone({ wasmtime: wasmtimePath, log: () => undefined });
  return prepared;
}

export function startWasmtime(options: WasmtimeStartOptions = {}, wasmtimePath = 'wasmtime'): Promise<WasmtimeProcess> {
  const component = prepareWasmtimeComponent(wasmtimePath);
  return onFreePort(options.port, (port) => startWasmtimeOn(port, component, options, wasmtimePath));
}

async function startWasmtimeOn(port: number, component: string, options: WasmtimeStartOptions, wasmtimePath: string): Promise<WasmtimeProcess> {
  const dataDir = options.dataDir ?? tempDataDir('wasmtime-data-');
  const config = { port, host: '127.0.0.1', dataDir, transport: 'http' as const, realtime: options.realtime ?? 'polling', instanceReuse: options.instanceReuse ?? 1 };
  const args = wasmtimeServeArgs(config, component, {});
  const extra = Object.entries(options.guestEnv ?? {}).flatMap(([k, value]) => ['--env', `${k}=${value}`]);
  args.splice(args.length - 1, 0, ...extra);
  const child = spawn(wasmtimePath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await untilReady(child, output, {
    name: 'wasmtime',
    ready: (line) => line.startsWith('Serving HTTP on'),
    timeoutMs: options.timeoutMs ?? 60_000,
    transform: guestLogLine,
  });
  const signal = async (name: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill(name);
    await exited;
  };
  return {
    ...serverParts(child, port, dataDir, output),
    stop: () => signal('SIGTERM'),
    kill: () => signal('SIGKILL'),
  };
}
