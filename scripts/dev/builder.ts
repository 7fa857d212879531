/**
 * The dev runner's side of the build process (build-worker.ts): one build at a time, its
 * outcome returned (its lines go to the terminal directly). A build process that died is
 * replaced before the next build.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';
import type { FromWorker, ToWorker } from './build-worker.ts';

export type BuildOutcome = { ok: true; ran: string[]; ms: number } | { ok: false; error: string; ms: number };

interface Running {
  child: ChildProcess;
  ready: Promise<Set<string>>;
  exited: Promise<void>;
}

export class Builder {
  readonly #root: string;
  #running: Running | undefined;

  constructor(root: string) {
    this.#root = root;
  }

  /** The files of host/ the build reads: a change to one needs a new build process (`renew()`). */
  async hostInputs(): Promise<Set<string>> {
    return this.#process().ready;
  }

  /** Builds the hosted component; never throws (a failure is an outcome). */
  async build(): Promise<BuildOutcome> {
    const started = performance.now();
    const { child, ready } = this.#process();
    const ms = () => performance.now() - started;
    try {
      await ready;
    } catch (error) {
      return { ok: false, error: `the build process did not start: ${error instanceof Error ? error.message : String(error)}`, ms: ms() };
    }
    return new Promise<BuildOutcome>((resolve) => {
      const onMessage = (message: FromWorker) => {
        if (message.kind === 'done') settle(message.ok ? { ok: true, ran: message.ran, ms: ms() } : { ok: false, error: message.error, ms: ms() });
      };
      const onExit = (code: number | null, signal: string | null) => settle({ ok: false, error: `the build process exited (${signal ?? `code ${code}`})`, ms: ms() });
      const settle = (outcome: BuildOutcome) => {
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(outcome);
      };
      child.on('message', onMessage);
      child.once('exit', onExit);
      child.send({ kind: 'build' } satisfies ToWorker);
    });
  }

  /** Has the build process componentize once, for nothing but to warm its compilers; `done` when it has. */
  warmUp(done: (ms: number) => void): void {
    const { child, ready } = this.#process();
    const onMessage = (message: FromWorker) => {
      if (message.kind !== 'warmed') return;
      child.off('message', onMessage);
      done(message.ms);
    };
    child.on('message', onMessage);
    void ready.then(() => child.send({ kind: 'warm-up' } satisfies ToWorker)).catch(() => child.off('message', onMessage));
  }

  /** Ends the build process (a build under way fails); the next build starts a fresh one. */
  async renew(): Promise<void> {
    const running = this.#running;
    this.#running = undefined;
    if (!running) return;
    running.child.kill('SIGTERM');
    await running.exited;
  }

  #process(): Running {
    if (this.#running) return this.#running;
    const child = fork(join(import.meta.dirname, 'build-worker.ts'), [], { cwd: this.#root, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const ready = new Promise<Set<string>>((resolve, reject) => {
      const onMessage = (message: FromWorker) => {
        if (message.kind !== 'ready') return;
        child.off('message', onMessage);
        resolve(new Set(message.hostInputs));
      };
      child.on('message', onMessage);
      child.once('error', reject);
      child.once('exit', (code, signal) => reject(new Error(`exited (${signal ?? `code ${code}`})`)));
    });
    ready.catch(() => {}); // reported by the build that waits for it
    child.once('exit', () => {
      if (this.#running?.child === child) this.#running = undefined;
    });
    const running = { child, ready, exited };
    this.#running = running;
    return running;
  }
}
