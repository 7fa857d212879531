/**
 * --workers N: N worker threads (host/workers/worker.ts), each a whole host, listening on one
 * port with SO_REUSEPORT so the kernel spreads connections across them. The first worker starts
 * alone (it runs storage migrations and picks the port when --port is 0), then the others start
 * together. A worker that dies stops the whole host: a supervisor restarts it as one unit.
 */
import { randomUUID } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { ConfigError, type HostConfig } from '../config.ts';
import type { HostLogger } from '../log.ts';
import type { ToMain, ToWorker, WorkerStart } from './messages.ts';

export interface RunningGroup {
  readonly port: number;
  readonly workers: number;
  /** Asks every worker to stop (each drains like a single host) and waits for them. */
  stop(): Promise<void>;
}

const WORKER_ENTRY = new URL('./worker.ts', import.meta.url);

class WorkerHandle {
  readonly #worker: Worker;
  readonly index: number;
  #stopped: Promise<number | undefined> | undefined;
  #exited = false;

  constructor(entry: URL, start: WorkerStart, onExit: (index: number, code: number, expected: boolean) => void) {
    this.index = start.index;
    this.#worker = new Worker(entry, { workerData: start });
    this.#worker.once('exit', (code) => {
      this.#exited = true;
      onExit(start.index, code, this.#stopped !== undefined);
    });
  }

  /** Resolves with the port once the worker listens; rejects with its start failure. */
  ready(): Promise<number> {
    return new Promise((resolve, reject) => {
      const onMessage = (message: ToMain) => {
        if (message.type === 'ready') resolve(message.port);
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
        if (message.type === 'stopped') runs = message.runs;
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
    const handle = new WorkerHandle(entry, { index, config: { ...config, port, workers: 1 }, env: { ...env }, channel }, onExit);
    handles.push(handle);
    return handle.ready();
  };
  try {
    const port = await spawn(1, config.port);
    await Promise.all(Array.from({ length: config.workers - 1 }, (_, i) => spawn(i + 2, port)));
    let stopped: Promise<void> | undefined;
    return {
      port,
      workers: config.workers,
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
