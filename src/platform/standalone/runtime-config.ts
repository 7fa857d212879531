/**
 * What the standalone runtime (`wasmtime serve`) can serve: HTTP/1.1 only (no gRPC, which needs
 * HTTP/2), a fresh instance per request (no pub/sub: realtime is `polling` or `off`).
 */
import type { AppConfig } from '../../config.ts';
import { AppError } from '../../errors.ts';

export const GRPC_NEEDS_NODE_HOST = 'gRPC is served by the Node host only (npm start -- --transport grpc|both); wasmtime serve speaks HTTP/1.1 only and gRPC needs HTTP/2';

/** The configuration this runtime runs, or a `configuration` error when it cannot serve it. */
export function standaloneConfig(config: AppConfig): AppConfig {
  if (config.transport !== 'http' && !config.grpcSupported) throw new AppError('configuration', GRPC_NEEDS_NODE_HOST);
  // No host runs maintenance here: requests do, amortised (src/maintenance/on-requests.ts).
  return { ...config, realtime: config.realtime === 'off' ? 'off' : 'polling', maintenanceOnRequests: true };
}
