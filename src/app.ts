/**
 * The application's single HTTP entry point, in routing order:
 * 1. gRPC detection (when the host supports gRPC and transport is grpc or both)
 * 2. transport grpc: every other request gets a plain-text 404
 * 3. REST  4. the stream  5. the auth service (API and pages)  6. static files, UI and server functions.
 * `GET /api/health` answers 200 once the configuration is valid: the host probes it at start.
 */
import { Hono } from 'hono';
import type { AppConfig } from './config.ts';
import type { Platform } from './platform/ports.ts';
import { CounterMemory } from './counter/application/current-counter.ts';
import { counterRestRoutes } from './counter/rest.ts';
import { counterStreamRoutes } from './counter/stream.ts';
import { errorResponse, notFoundResponse } from './counter/http-errors.ts';
import { AppError } from './errors.ts';
import { authRoutes, buildAuthDeps } from './auth/index.ts';
import { counterUiRoutes } from './ui/index.ts';

export const GRPC_MODE_NOT_FOUND =
  'This component runs in gRPC mode: only gRPC requests are served here. Use the gRPC endpoint (content type application/grpc).';

export function buildApp(platform: Platform, config: AppConfig): Hono {
  const deps = {
    platform,
    realtime: {
      enabled: config.realtime !== 'off',
      channel: config.realtimeChannel,
      delivery: config.realtime === 'polling' ? ('polling' as const) : ('pubsub' as const),
    },
    // The app is built once per guest instance, so this memory is the instance's own.
    memory: new CounterMemory(),
  };
  // Validated before any route exists: a misconfiguration fails every request, and the start.
  const auth = buildAuthDeps(platform, config.env);
  const app = new Hono();

  if (config.transport === 'grpc') {
    app.use('*', async (c) => c.text(GRPC_MODE_NOT_FOUND, 404));
  }

  app.route('/', counterRestRoutes(deps));
  app.route('/', counterStreamRoutes(deps, { relay: config.streamRelay }));
  app.route('/', authRoutes(auth));
  app.get('/api/health', (c) => c.json({ status: 'ok' }, 200, { 'Cache-Control': 'no-store' }));
  app.route('/', counterUiRoutes(deps));

  app.notFound((c) => notFoundResponse(c));
  app.onError((error, c) => errorResponse(c, AppError.from(error), platform.logger));
  return app;
}
