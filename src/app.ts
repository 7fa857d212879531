/**
 * The application's single HTTP entry point, in routing order:
 * 1. gRPC detection (when the host supports gRPC and transport is grpc or both)
 * 2. transport grpc: every other request gets a plain-text 404
 * 3. REST  4. the stream  5. static files, UI and server functions.
 */
import { Hono } from 'hono';
import type { AppConfig } from './config.ts';
import type { Platform } from './platform/ports.ts';
import { CounterMemory } from './counter/application/current-counter.ts';
import { counterRestRoutes } from './counter/rest.ts';
import { counterStreamRoutes } from './counter/stream.ts';
import { errorResponse, notFoundResponse } from './counter/http-errors.ts';
import { AppError } from './errors.ts';
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
  const app = new Hono();

  if (config.transport === 'grpc') {
    app.use('*', async (c) => c.text(GRPC_MODE_NOT_FOUND, 404));
  }

  app.route('/', counterRestRoutes(deps));
  app.route('/', counterStreamRoutes(deps));
  app.route('/', counterUiRoutes(deps));

  app.notFound((c) => notFoundResponse(c));
  app.onError((error, c) => errorResponse(c, AppError.from(error), platform.logger));
  return app;
}
