/**
 * The auth service's routes for the top-level app: the JSON API under /api/auth and the pages
 * /login and /dashboard. `buildAuthDeps` validates the AUTH_* configuration (throws
 * AppError 'configuration' naming the variables).
 */
import { Hono } from 'hono';
import type { Platform } from '../platform/ports.ts';
import type { AuthDeps, OfferedProvider } from './application/index.ts';
import { parseAuthConfig } from './config.ts';
import { authPageRoutes } from './pages/routes.tsx';
import { authRestRoutes } from './rest/routes.ts';

export { AUTH_PATHS } from './rest/routes.ts';
export type { AuthDeps } from './application/index.ts';

export function buildAuthDeps(platform: Platform, env: ReadonlyMap<string, string>, offeredProviders?: () => OfferedProvider[]): AuthDeps {
  return { platform, config: parseAuthConfig(env), ...(offeredProviders ? { offeredProviders } : {}) };
}

export function authRoutes(deps: AuthDeps): Hono {
  const app = new Hono();
  app.route('/', authRestRoutes(deps));
  app.route('/', authPageRoutes(deps));
  return app;
}
