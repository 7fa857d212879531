/**
 * The component's configuration, read from its environment (wasi:cli/environment): the Node
 * host passes its resolved settings; under `wasmtime serve` the launcher passes `--env`.
 */
import * as v from 'valibot';
import { AppError } from './errors.ts';

const schema = v.object({
  TRANSPORT: v.optional(v.picklist(['http', 'grpc', 'both']), 'http'),
  REALTIME: v.optional(v.picklist(['off', 'local', 'polling', 'postgres', 'redis']), 'local'),
  REDIS_CHANNEL: v.optional(v.pipe(v.string(), v.minLength(1)), 'app-events'),
  APP_RUNTIME: v.optional(v.string(), 'unknown'),
  APP_GRPC_SUPPORTED: v.optional(v.picklist(['true', 'false']), 'false'),
  APP_STREAM_RELAY: v.optional(v.picklist(['true', 'false']), 'false'),
  APP_STARTUP_PROBE_TOKEN: v.optional(v.pipe(v.string(), v.minLength(16))),
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
    runtime: c.APP_RUNTIME,
    grpcSupported: c.APP_GRPC_SUPPORTED === 'true',
    streamRelay: c.APP_STREAM_RELAY === 'true',
    startupProbeToken: c.APP_STARTUP_PROBE_TOKEN,
    env,
  };
}
