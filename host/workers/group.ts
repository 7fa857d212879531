/**
 * --workers N: N worker threads (host/workers/worker.ts), each a whole host, listening on one
 * port with SO_REUSEPORT so the kernel spreads connections across them. The first worker starts
 * alone (it runs storage migrations and picks the port when --port is 0), then the others start
 * together. A worker that dies stops the whole host: a supervisor restarts it as one unit.
 */
import { randomUUID } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import type { StartupFeature } from '../../src/contract/startup-probe.ts';
import { ConfigError, type HostConfig } from '../config.ts';
import type { HostLogger } from '../log.ts';
import type { ReadinessReport } from '../metrics/readiness.ts';
import { combineReadiness, type MetricsJson } from '../metrics/workers.ts';
import type { Question, ToMain, ToWorker, WorkerStart } from './messages.ts';

export interface RunningGroup {
  readonly port: number;
  /** What the component said its configuration turns on (the first worker's start-up probe). */
  readonly features: readonly StartupFeature[];
  readonly workers: number;
  /** Worker threads alive now. */
  readonly alive: number;
  /** Every worker's registry as JSON (host/metrics/workers.ts); a worker that does not answer in time is left out. */
  threadMetrics(): Promise<MetricsJson[]>;
  /** Ready when every worker is, and not once stopping began. */
  readiness(): Promise<ReadinessReport>;
  /** Asks every worker to stop (each drains like a single host) and waits for them. */
  stop(): Promise<void>;
}

const WORKER_ENTRY = new URL('./worker.ts', import.meta.url);
/** How long the main thread waits for a worker's metrics or readiness (a scrape or probe must not hang). */
export const QUESTION_TIMEOUT_MS = 2_000;

type Answer<Q extends Question> = Extract<ToMain, { type: Q }>;

class WorkerHandle {
  readonly #worker: Worker;
  readonly index: number;
  #stopped: Promise<number | undefined> | undefined;
  #exited = false;
  #nextId = 0;
  readonly #pending = new Map<number, (answer: ToMain) => void>();

  constructor(entry: URL, start: WorkerStart, onExit: (index: number, code: number, expected: boolean) => void) {
    this.index = start.index;
    this.#worker = new Worker(entry, { workerData: start });
    this.#worker.once('exit', (code) => {
      this.#exited = true;
      for (const answer of this.#pending.values()) answer({ type: 'stopped', runs: 0 });
      onExit(start.index, code, this.#stopped !== undefined);
    });
    this.#worker.on('message', (message: ToMain) => {
      if (message.type !== 'metrics' && message.type !== 'readiness') return;
      this.#pending.get(message.id)?.(message);
    });
  }

  get exited(): boolean {
    return this.#exited;
  }

  /** The worker's answer, or undefined when it exited or did not answer within QUESTION_TIMEOUT_MS. */
  ask<Q extends Question>(type: Q): Promise<Answer<Q> | undefined> {
    if (this.#exited) return Promise.resolve(undefined);
    const id = ++this.#nextId;
    return new Promise((resolve) => {
      const timer = setTimeout(() => settle(undefined), QUESTION_TIMEOUT_MS);
      const settle = (answer: ToMain | undefined) => {
        clearTimeout(timer);
        this.#pending.delete(id);
        resolve(answer?.type === type ? (answer as Answer<Q>) : undefined);
      };
      this.#pending.set(id, settle);
      this.#worker.postMessage({ type, id } satisfies ToWorker);
    });
  }

  /** Resolves once the worker listens; rejects with its start failure. */
  ready(): Promise<{ port: number; features: StartupFeature[] }> {
    return new Promise((resolve, reject) => {
      const onMessage = (message: ToMain) => {
        if (message.type === 'ready') resolve({ port: message.port, features: message.features });
        else if (message.type === 'failed') reject(message.configError ? new ConfigError(message.message) : new Error(message.message));
        else return;
        this.#worker.off('message', onMessage);
      };
      this.#worker.on('message', onMessage);
      this.#worker.once('error', reject);
      this.#worker.once('exit', (code) => reject(new Error(`worker ${this.index} exited with code ${code} while starting`)));
    });
  }

  /** Resolves with the number of exchanges the worker served. */
  stop(): Promise<number | undefined> {
    if (this.#exited) this.#stopped ??= Promise.resolve(undefined);
    this.#stopped ??= new Promise((resolve) => {
      let runs: number | undefined;
      this.#worker.on('message', (message: ToMain) => {
        if (message.type !== 'stopped') return;
        runs = message.runs;
        // Drained and closed: a handle the thread still holds (a timer a departed client left
        // behind) must not keep it, and the host, from exiting until the grace period forces it.
        void this.#worker.terminate();
      });
      this.#worker.once('exit', () => resolve(runs));
      this.#worker.postMessage({ type: 'stop' } satisfies ToWorker);
    });
    return this.#stopped;
  }

  terminate(): Promise<number> {
    this.#stopped ??= Promise.resolve(undefined);
    return this.#worker.terminate();
  }
}

/** `entry` is the worker script (tests give a stand-in speaking the same messages). */
export async function startWorkerGroup(
  config: HostConfig,
  env: NodeJS.ProcessEnv,
  logger: HostLogger,
  onFatal: (error: Error) => void,
  entry: URL = WORKER_ENTRY,
): Promise<RunningGroup> {
  const channel = `wasi-host-${randomUUID()}`;
  const handles: WorkerHandle[] = [];
  let stopping = false;
  const onExit = (index: number, code: number, expected: boolean) => {
    if (expected || stopping) return;
    stopping = true;
    logger.log('error', `worker ${index} exited unexpectedly`, { code: 'worker_exited', worker: index, exit_code: code });
    void Promise.all(handles.map((h) => h.stop())).then(() => onFatal(new Error(`worker ${index} exited with code ${code}`)));
  };
  const spawn = (index: number, port: number) => {
    const handle = new WorkerHandle(entry, { index, config: { ...config, port, workers: 1 }, threads: config.workers, env: { ...env }, channel }, onExit);
    handles.push(handle);
    return handle.ready();
  };
  try {
    const { port, features } = await spawn(1, config.port);
    await Promise.all(Array.from({ length: config.workers - 1 }, (_, i) => spawn(i + 2, port)));
    let stopped: Promise<void> | undefined;
    return {
      port,
      features,
      workers: config.workers,
      get alive() {
        return handles.filter((h) => !h.exited).length;
      },
      async threadMetrics() {
        const answers = await Promise.all(handles.map((h) => h.ask('metrics')));
        return answers.flatMap((a) => (a ? [a.metrics] : []));
      },
      async readiness() {
        if (stopping) return combineReadiness(true, []);
        const answers = await Promise.all(handles.map((h) => h.ask('readiness')));
        return combineReadiness(
          stopping,
          answers.map((a) => a?.report),
        );
      },
      stop() {
        stopping = true;
        stopped ??= (async () => {
          const runs = await Promise.all(handles.map((h) => h.stop()));
          logger.log('info', 'workers stopped', { code: 'workers_stopped', runs_per_worker: runs });
        })();
        return stopped;
      },
    };
  } catch (error) {
    stopping = true;
    await Promise.all(handles.map((h) => h.terminate()));
    throw error;
  }
}
