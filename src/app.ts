/**
 * The application's single HTTP entry point, in routing order:
 * 1. gRPC detection (when the host supports gRPC and transport is grpc or both)
 * 2. transport grpc: every other request gets a plain-text 404
 * 3. REST  4. the stream  5. the auth service (API and pages)  6. static files, UI and server functions.
 * `GET /api/health` answers 200 once the configuration is valid: the host probes it at start.
 */
import { Hono } from 'hono';
import type { AppConfig } from './config.ts';
import { STARTUP_FEATURES_FIELD } from './contract/startup-probe.ts';
import type { Platform } from './platform/ports.ts';
import { counterRestRoutes } from './counter/rest.ts';
import { counterStreamRoutes } from './counter/stream.ts';
import { errorResponse, notFoundResponse } from './http/errors.ts';
import { healthRoutes } from './http/health.ts';
import { prefersHtml } from './http/accept.ts';
import { errorAsPage } from './web/error-page.tsx';
import { AppError } from './errors.ts';
import { authRoutes, buildAuthDeps, sessionGuards } from './auth/index.ts';
import { startupFeatures } from './auth/startup-features.ts';
import { writeAccess } from './counter/write-access.ts';
import { counterPageRoutes } from './counter/pages/routes.tsx';
import { STATIC_ASSETS } from './web/generated/static-assets.ts';
import { openApiRoutes } from './openapi/routes.ts';
import { counterGrpcEndpoint } from './counter/grpc/routes.ts';
import { grpcErrorResponse, isGrpcRequest } from './grpc/server.ts';
import { GrpcCode, GrpcError } from './grpc/status.ts';
import { runMaintenancePass } from './maintenance/pass.ts';
import { maintenanceRoutes } from './maintenance/routes.ts';
import { maintainOnRequests } from './maintenance/on-requests.ts';

export const GRPC_MODE_NOT_FOUND = 'This component runs in gRPC mode: only gRPC requests are served here. Use the gRPC endpoint (content type application/grpc).';

export const GRPC_DISABLED = 'gRPC is not served here: start the server with transport grpc or both on a host with gRPC support';

/** The entry point every host calls: one request in, one response out. */
export interface Application {
  fetch(request: Request): Response | Promise<Response>;
}

/** The application and the HTTP routes it registered (what the contract's coverage test walks). */
export interface RoutedApplication extends Application {
  readonly routes: readonly { readonly method: string; readonly path: string }[];
}

export function buildApp(platform: Platform, config: AppConfig): RoutedApplication {
  // Validated before any route exists: a misconfiguration fails every request, and the start.
  const auth = buildAuthDeps(platform, config.env);
  // requireSession() / requireAal() for any route of the component (docs/extending.md).
  const guards = sessionGuards(auth);
  const deps = {
    platform,
    publicOrigin: auth.config.publicOrigin,
    // Every command surface asks the auth module's guards who sends a command (COUNTER_WRITES).
    writeAccess: writeAccess(config.counterWrites, guards),
    realtime: {
      enabled: config.realtime !== 'off',
      channel: config.realtimeChannel,
      delivery: config.realtime === 'polling' ? ('polling' as const) : ('pubsub' as const),
    },
  };
  const app = new Hono();

  // 1. gRPC detection by content type. Served only when the host supports gRPC (HTTP/2, trailers)
  // and transport is grpc or both; otherwise refused with a proper gRPC status, not a REST 404.
  // Steps 1 and 2 run before Hono, not as a '*' middleware: a middleware on every route takes
  // Hono off its fast path (one handler, no compose) for every request.
  const grpcEnabled = config.grpcSupported && config.transport !== 'http';
  const grpc = grpcEnabled ? counterGrpcEndpoint(deps) : undefined;
  const refuseGrpc = (request: Request): Response => {
    platform.logger.log('warn', 'gRPC request refused', { code: 'grpc_disabled', transport: config.transport, path: new URL(request.url).pathname });
    return grpcErrorResponse(new GrpcError(GrpcCode.UNIMPLEMENTED, GRPC_DISABLED));
  };

  const maintenancePass = () => runMaintenancePass(auth);
  const maintainAfter = config.maintenanceOnRequests ? maintainOnRequests(platform, config.maintenanceIntervalSeconds, maintenancePass) : () => {};

  app.route('/', counterRestRoutes(deps));
  app.route('/', counterStreamRoutes(deps, { relay: config.streamRelay }));
  app.route('/', authRoutes(auth));
  app.route(
    '/',
    healthRoutes(config.startupProbeToken, () => ({ [STARTUP_FEATURES_FIELD]: startupFeatures(auth) }), platform.logger),
  );
  app.route('/', maintenanceRoutes(config.maintenanceToken, maintenancePass, platform.logger));
  app.route('/', openApiRoutes(platform.logger));
  app.route('/', counterPageRoutes(deps, STATIC_ASSETS));

  app.notFound((c) => notFoundResponse(c));
  app.onError((error, c) => errorResponse(c, AppError.from(error), platform.logger));

  return {
    routes: app.routes,
    fetch(request) {
      maintainAfter();
      if (isGrpcRequest(request)) return grpc ? grpc.serve(request) : refuseGrpc(request);
      // The host's poll of a relayed gRPC stream (a plain GET, so in every transport mode).
      const poll = grpc?.answerPoll(request);
      if (poll) return poll;
      // 2. transport grpc: everything else is a plain-text 404.
      if (config.transport === 'grpc') return new Response(GRPC_MODE_NOT_FOUND, { status: 404, headers: { 'content-type': 'text/plain; charset=UTF-8' } });
      // A browser gets an error as a page; an API client, and every answer that is not an error, as it is.
      if (prefersHtml(request.headers.get('accept'))) return Promise.resolve(app.fetch(request)).then(errorAsPage);
      return app.fetch(request);
    },
  };
}
