/**
 * Starts the real Node host (host/main.ts, the built component) as a child process on a free
 * port, for end-to-end tests. Collects its log lines so tests can assert on them.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ServerProcess, serverParts, untilReady } from './child-output.ts';

export const ROOT = join(import.meta.dirname, '..');

export interface HostProcess extends ServerProcess {
  /** SIGTERM and wait for exit; returns the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * A port for a test server that nothing else will take before the server binds it. A port from
 * `listen(0)` comes from the kernel's ephemeral range (32768–60999 on Linux), which every
 * outgoing connection also draws from: between releasing it and the host binding it, a client
 * socket of a suite running in parallel could take it (seen in CI as the host's EADDRINUSE).
 * These come from 20000–31999, below that range: one block of 1,000 per vitest worker
 * (`VITEST_POOL_ID`), walked from a random start, each checked free by binding it on both
 * loopback addresses (the proxies in front of a test host listen on ::1).
 *
 * The blocks are turned by the run (the workers' parent process): a second test run on the same
 * machine draws from other blocks, so its servers seldom race this run's for one port. Such a race
 * is silent for hosts that listen with SO_REUSEPORT (`--workers`): the kernel would let both bind
 * and share out the connections between them.
 */
const PORT_BLOCK = 1_000;
const PORT_BLOCKS = 12;
const runTurn = process.env.VITEST_POOL_ID === undefined ? 0 : process.ppid;
const poolBlock = ((Number(process.env.VITEST_POOL_ID ?? process.pid) + runTurn) % PORT_BLOCKS) * PORT_BLOCK + 20_000;
let nextPortOffset = Math.floor(Math.random() * PORT_BLOCK);

export async function freePort(): Promise<number> {
  for (let tries = 0; tries < PORT_BLOCK; tries++) {
    const port = poolBlock + (nextPortOffset++ % PORT_BLOCK);
    if ((await canBind(port, '127.0.0.1')) && (await canBind(port, '::1'))) return port;
  }
  throw new Error(`no free port in ${poolBlock}-${poolBlock + PORT_BLOCK - 1}`);
}

function canBind(port: number, address: string): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    // A machine without IPv6 has no ::1 to take: only a port in use (or forbidden) counts as taken.
    server.once('error', (error: NodeJS.ErrnoException) => resolve(error.code !== 'EADDRINUSE' && error.code !== 'EACCES'));
    server.listen(port, address, () => server.close(() => resolve(true)));
  });
}

/**
 * Starts a server on `chosen`, or on a free port, and on another one if that was taken between
 * freePort() and the server's bind: other suites, and other test runs on a shared machine, draw
 * from the same ports. A port the caller chose is tried once.
 */
export async function onFreePort<T>(chosen: number | undefined, start: (port: number) => Promise<T>): Promise<T> {
  if (chosen !== undefined) return start(chosen);
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(await freePort());
    } catch (error) {
      if (attempt >= 3 || !/already in use|EADDRINUSE/i.test(String(error))) throw error;
    }
  }
}

export function tempDataDir(prefix = 'wasi-app-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export interface StartOptions {
  args?: string[];
  env?: Record<string, string>;
  dataDir?: string;
  port?: number;
  /** ms to wait for the listening line */
  timeoutMs?: number;
  /** The checkout whose host and built component run (`npm run bench -- overload` measures another branch's); default this one. */
  root?: string;
  /** The script run instead of host/main.ts, relative to `root`: a benchmark's comparison server taking the same flags and printing the same listening line. */
  entry?: string;
  /** The working directory (where the host reads `.env`); default `root`. */
  cwd?: string;
}

export function startHost(options: StartOptions = {}): Promise<HostProcess> {
  return onFreePort(options.port, (port) => startHostOn(port, options));
}

async function startHostOn(port: number, options: StartOptions): Promise<HostProcess> {
  const dataDir = options.dataDir ?? tempDataDir();
  const root = options.root ?? ROOT;
  const child = spawn(process.execPath, [join(root, options.entry ?? join('host', 'main.ts')), '--port', String(port), '--data-dir', dataDir, ...(options.args ?? [])], {
    cwd: options.cwd ?? root,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // A guard against a host that never starts, not a bound on how fast it starts: on a loaded 2-core machine that took 30 s.
  await untilReady(child, output, { name: 'host', ready: (line) => line.includes('"code":"host_listening"'), timeoutMs: options.timeoutMs ?? 120_000 });
  return {
    ...serverParts(child, port, dataDir, output),
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null) return child.exitCode;
      child.kill(signal);
      return exited;
    },
    async kill() {
      if (child.exitCode !== null) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** Runs the host CLI to completion (for configuration errors); returns exit code, output (stdout and stderr) and stderr alone. `cwd`: where it looks for `.env`. */
export function runHostCli(args: string[], env: Record<string, string> = {}, cwd = ROOT): Promise<{ code: number | null; output: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'host', 'main.ts'), ...args], {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => {
      output += c.toString();
      stderr += c.toString();
    });
    child.once('close', (code) => resolve({ code, output, stderr }));
  });
}
