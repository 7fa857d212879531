/** What the main thread and its worker threads say to each other (host/workers/). */
import type { HostConfig } from '../config.ts';

/** Handed to each worker thread at start (structured-cloned). */
export interface WorkerStart {
  /** 1-based, for logs. */
  index: number;
  /** With the port every worker listens on (the first worker picks it when the flag says 0). */
  config: HostConfig;
  env: Record<string, string | undefined>;
  /** The BroadcastChannel that carries --realtime local across this host's threads. */
  channel: string;
}

export type ToMain = { type: 'ready'; port: number } | { type: 'failed'; message: string; configError: boolean } | { type: 'stopped'; runs: number };

export type ToWorker = { type: 'stop' };
