/**
 * Starts the real Node host (host/main.ts, the built component) as a child process on a free
 * port, for end-to-end tests. Collects its log lines so tests can assert on them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');

export interface HostProcess {
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  readonly child: ChildProcess;
  /** Every stdout/stderr line so far. */
  readonly output: string[];
  /** Parsed JSON log lines so far. */
  logs(): Array<Record<string, unknown>>;
  /** SIGTERM and wait for exit; returns the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** SIGKILL and wait for exit. */
  kill(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
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
}

export async function startHost(options: StartOptions = {}): Promise<HostProcess> {
  const port = options.port ?? (await freePort());
  const dataDir = options.dataDir ?? tempDataDir();
  const child = spawn(
    process.execPath,
    [join(ROOT, 'host', 'main.ts'), '--port', String(port), '--data-dir', dataDir, ...(options.args ?? [])],
    { cwd: ROOT, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const output: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const listening = new Promise<void>((resolve, reject) => {
    let partial = '';
    const onData = (chunk: Buffer) => {
      partial += chunk.toString('utf8');
      const lines = partial.split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        output.push(line);
        if (line.includes('"code":"host_listening"')) resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) => reject(new Error(`host exited with ${code} before listening:\n${output.join('\n')}`)));
  });
  const timeout = options.timeoutMs ?? 30_000;
  await Promise.race([
    listening,
    new Promise((_, reject) => setTimeout(() => reject(new Error(`host did not listen within ${timeout} ms:\n${output.join('\n')}`)), timeout).unref()),
  ]);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    dataDir,
    child,
    output,
    logs: () =>
      output.flatMap((line) => {
        try {
          return [JSON.parse(line) as Record<string, unknown>];
        } catch {
          return [];
        }
      }),
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

/** Runs the host CLI to completion (for configuration errors); returns exit code and output. */
export function runHostCli(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'host', 'main.ts'), ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.once('exit', (code) => resolve({ code, output }));
  });
}
