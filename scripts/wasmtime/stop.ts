/**
 * How the launcher stops `wasmtime serve`. On SIGINT wasmtime stops accepting and waits for every
 * running handler; a live-update (SSE) handler whose client left only notices at its next write,
 * the keep-alive up to 15 s later, and one whose client stays never ends. So the launcher forwards
 * the signal, gives short requests STOP_GRACE_MS to finish, then kills wasmtime (SIGKILL: its
 * own second Ctrl-C also waits and prints a worker panic). The file store survives a kill -9
 * (docs/storage.md), and a client's SSE reconnect resumes from its Last-Event-ID.
 */
import type { ChildProcess } from 'node:child_process';

export const STOP_GRACE_MS = 1_000;

export type StopLog = (level: string, msg: string, fields?: Record<string, unknown>) => void;

/** Forwards SIGINT/SIGTERM to wasmtime once, and kills it if it is still running after the grace. */
export function stopOnSignals(child: ChildProcess, log: StopLog, graceMs = STOP_GRACE_MS): { readonly stopping: boolean } {
  const state = { stopping: false };
  const stop = (signal: NodeJS.Signals) => {
    if (state.stopping) return;
    state.stopping = true;
    log('info', `${signal}: stopping wasmtime (requests get ${graceMs} ms to finish)`, { code: 'wasmtime_stopping', signal, graceMs });
    child.kill(signal);
    const timer = setTimeout(() => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      log('info', `requests still open after ${graceMs} ms (live-update streams): killing wasmtime`, { code: 'wasmtime_killed', graceMs });
      child.kill('SIGKILL');
    }, graceMs);
    child.once('exit', () => clearTimeout(timer));
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => stop(signal));
  return state;
}
