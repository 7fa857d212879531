/** What the main thread and its worker threads say to each other (host/workers/). */
import type { StartupFeature } from '../../src/contract/startup-probe.ts';
import type { HostConfig } from '../config.ts';
import type { ReadinessReport } from '../metrics/readiness.ts';
import type { MetricsJson } from '../metrics/workers.ts';

/** Handed to each worker thread at start (structured-cloned). */
export interface WorkerStart {
  /** 1-based, for logs. */
  index: number;
  /** With the port every worker listens on (the first worker picks it when the flag says 0). */
  config: HostConfig;
  /** How many worker threads the host runs (each host's share of the memory budget). */
  threads: number;
  env: Record<string, string | undefined>;
  /** The BroadcastChannel that carries --realtime local across this host's threads. */
  channel: string;
}

export type ToMain =
  | { type: 'ready'; port: number; features: StartupFeature[] }
  | { type: 'failed'; message: string; configError: boolean }
  | { type: 'stopped'; runs: number }
  /** Answers to the operations listener's questions (host/metrics/workers.ts), matched by `id`. */
  | { type: 'metrics'; id: number; metrics: MetricsJson }
  | { type: 'readiness'; id: number; report: ReadinessReport };

export type ToWorker = { type: 'stop' } | { type: 'metrics'; id: number } | { type: 'readiness'; id: number };

/** The questions the main thread asks a running worker. */
export type Question = Exclude<ToWorker['type'], 'stop'>;
