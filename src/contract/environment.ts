/**
 * The variables of the guest's environment (wasi:cli/environment) through which a host tells the
 * guest what it provides. The Node host sets them (host/guest/guest-env.ts), `wasmtime serve` gets the
 * ones it can honour as `--env` (scripts/wasmtime/serve-args.ts), the guest reads them (src/config.ts).
 */
export const GUEST_ENV = {
  /** Which host runs the guest (`node-host`, `wasmtime`): for logs and diagnostics. */
  runtime: 'APP_RUNTIME',
  /** `true` when the host serves HTTP/2 cleartext with response trailers on its port (gRPC). */
  grpcSupported: 'APP_GRPC_SUPPORTED',
  /** `true` when the host holds streamed responses and polls the guest for frames. */
  streamRelay: 'APP_STREAM_RELAY',
  /** `true` when only this machine can reach the port: development-only features require it. */
  listenLoopbackOnly: 'APP_LISTEN_LOOPBACK_ONLY',
  /** `trusted` when the host sets the client-address header itself and drops a client's copy. */
  clientAddressHeader: 'APP_CLIENT_ADDRESS_HEADER',
  /** The token of the host's start-up probe request (headers.ts STARTUP_PROBE_HEADER). */
  startupProbeToken: 'APP_STARTUP_PROBE_TOKEN',
  /** The token of the host's maintenance requests (headers.ts MAINTENANCE_HEADER), random per host start. */
  maintenanceToken: 'APP_MAINTENANCE_TOKEN',
} as const;
