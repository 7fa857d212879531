/**
 * The component's configuration, read from its environment (wasi:cli/environment): the Node
 * host passes its resolved settings; under `wasmtime serve` the launcher passes `--env`.
 */
import * as v from 'valibot';
import { GUEST_ENV } from './contract/environment.ts';
import { AppError } from './errors.ts';

/** Who may send the counter's commands (src/counter/write-access.ts applies it). */
export const COUNTER_WRITES = ['anyone', 'signed-in', 'aal2'] as const;
export type CounterWrites = (typeof COUNTER_WRITES)[number];

const schema = v.object({
  TRANSPORT: v.optional(v.picklist(['http', 'grpc', 'both']), 'http'),
  REALTIME: v.optional(v.picklist(['off', 'local', 'polling', 'postgres', 'redis']), 'local'),
  REDIS_CHANNEL: v.optional(v.pipe(v.string(), v.minLength(1)), 'app-events'),
  [GUEST_ENV.runtime]: v.optional(v.string(), 'unknown'),
  [GUEST_ENV.grpcSupported]: v.optional(v.picklist(['true', 'false']), 'false'),
  [GUEST_ENV.streamRelay]: v.optional(v.picklist(['true', 'false']), 'false'),
  [GUEST_ENV.startupProbeToken]: v.optional(v.pipe(v.string(), v.minLength(16))),
  [GUEST_ENV.maintenanceToken]: v.optional(v.pipe(v.string(), v.minLength(16))),
  COUNTER_WRITES: v.optional(v.picklist(COUNTER_WRITES), 'anyone'),
  MAINTENANCE_INTERVAL: v.pipe(v.optional(v.string(), '60'), v.regex(/^\d{1,5}$/), v.transform(Number), v.integer(), v.minValue(0), v.maxValue(86_400)),
});

export interface AppConfig {
  transport: 'http' | 'grpc' | 'both';
  realtime: 'off' | 'local' | 'polling' | 'postgres' | 'redis';
  realtimeChannel: string;
  runtime: string;
  grpcSupported: boolean;
  /** The host holds SSE connections and polls the guest for frames (the Node host; not wasmtime serve). */
  streamRelay: boolean;
  /** The token of the host's start-up probe: its request gets the configuration warnings logged (absent: never). */
  startupProbeToken: string | undefined;
  /** The token of the host's maintenance requests (src/maintenance/); absent: no such route. */
  maintenanceToken: string | undefined;
  /** Seconds between maintenance passes run on requests (wasmtime serve; the Node host runs its own); 0: never. */
  maintenanceIntervalSeconds: number;
  /** Whether requests run maintenance (wasmtime serve: no host does it); see src/maintenance/on-requests.ts. */
  maintenanceOnRequests: boolean;
  /** Who may send the counter's commands: anyone, a signed-in user, or one signed in with two factors (src/counter/write-access.ts). */
  counterWrites: CounterWrites;
  /** Every variable, for features that read their own (the auth service). */
  env: ReadonlyMap<string, string>;
}

export function parseConfig(entries: ReadonlyArray<readonly [string, string]>): AppConfig {
  const env = new Map(entries);
  const result = v.safeParse(schema, Object.fromEntries(env));
  if (!result.success) {
    const names = [...new Set(result.issues.map((issue) => v.getDotPath(issue) ?? 'environment'))].join(', ');
    throw new AppError('configuration', `invalid configuration: ${names}`);
  }
  const c = result.output;
  return {
    transport: c.TRANSPORT,
    realtime: c.REALTIME,
    realtimeChannel: c.REDIS_CHANNEL,
    runtime: c[GUEST_ENV.runtime],
    grpcSupported: c[GUEST_ENV.grpcSupported] === 'true',
    streamRelay: c[GUEST_ENV.streamRelay] === 'true',
    startupProbeToken: c[GUEST_ENV.startupProbeToken],
    maintenanceToken: c[GUEST_ENV.maintenanceToken],
    maintenanceIntervalSeconds: c.MAINTENANCE_INTERVAL,
    maintenanceOnRequests: false,
    counterWrites: c.COUNTER_WRITES,
    env,
  };
}
