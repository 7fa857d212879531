/**
 * What the suites need from a server child process (the Node host, wasmtime serve): every
 * stdout/stderr line collected, a wait for the line that says it listens, and its JSON log lines.
 */
import type { ChildProcess } from 'node:child_process';
import { lineSplitter } from '../scripts/wasmtime/output.ts';

/** A server child process the suites and benchmarks drive (the Node host, wasmtime serve). */
export interface ServerProcess {
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  readonly child: ChildProcess;
  /** Every stdout/stderr line so far. */
  readonly output: string[];
  /** Parsed JSON log lines so far. */
  logs(): Array<Record<string, unknown>>;
  /** SIGKILL and wait for exit. */
  kill(): Promise<void>;
}

/** What every server child process answers the same way: its address, its data, its lines. */
export function serverParts(child: ChildProcess, port: number, dataDir: string, output: string[]): Omit<ServerProcess, 'kill'> {
  return { url: `http://127.0.0.1:${port}`, port, dataDir, child, output, logs: () => jsonLogs(output) };
}

export interface ReadyOptions {
  /** Name in error messages, e.g. 'host'. */
  name: string;
  /** The line that means the server listens. */
  ready: (line: string) => boolean;
  timeoutMs: number;
  /** Rewrites each line before it is kept (e.g. wasmtime's per-request prefix removed). */
  transform?: (line: string) => string;
}

/** Collects the child's lines into `output` and resolves once a ready line arrives; rejects if it exits first or times out. */
export async function untilReady(child: ChildProcess, output: string[], options: ReadyOptions): Promise<void> {
  const listening = new Promise<void>((resolve, reject) => {
    // One splitter per stream: a line must not be glued to the other stream's partial line.
    const collect = () =>
      lineSplitter((line) => {
        output.push(options.transform ? options.transform(line) : line);
        if (options.ready(line)) resolve();
      });
    child.stdout!.on('data', collect());
    child.stderr!.on('data', collect());
    child.once('exit', (code) => reject(new Error(`${options.name} exited with ${code} before listening:\n${output.join('\n')}`)));
  });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${options.name} did not listen within ${options.timeoutMs} ms:\n${output.join('\n')}`)), options.timeoutMs);
    timer.unref();
  });
  try {
    await Promise.race([listening, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The lines that are JSON objects (the structured logs), parsed. */
export function jsonLogs(output: readonly string[]): Array<Record<string, unknown>> {
  return output.flatMap((line) => {
    try {
      return [JSON.parse(line) as Record<string, unknown>];
    } catch {
      return [];
    }
  });
}
