/**
 * The auth service's routes for the top-level app: the JSON API under /api/auth, the OAuth
 * sign-in routes under /api/auth/oauth, the administration API under /api/admin, and the pages
 * /login and /dashboard. `buildAuthDeps`
 * validates the AUTH_* configuration, OAuth included (throws AppError 'configuration' naming the
 * variables, which the host's start-up probe turns into exit code 2).
 */
import { Hono } from 'hono';
import { AppError } from '../errors.ts';
import type { Platform } from '../platform/ports.ts';
import type { AuthDeps } from './application/index.ts';
import { parseAuthConfig } from './config.ts';
import { OAuthConfigError, parseOAuthConfig, type OAuthConfig } from './oauth/config.ts';
import { offeredProviders } from './oauth/flow/offered.ts';
import { providersNotOffered } from './oauth/not-offered.ts';
import { envPrefix } from './oauth/provider-ids.ts';
import { keyValueSecretCache } from './oauth/flow/secret-cache.ts';
import { defaultDeps } from './oauth/providers/index.ts';
import { authPageRoutes } from './pages/routes.tsx';
import { oauthRoutes } from './oauth/routes.tsx';
import { authRestRoutes } from './rest/routes.ts';
import { adminRoutes } from './admin/routes.ts';

export { AUTH_PATHS } from './rest/routes.ts';
export { sessionGuards, type SessionGuards, type SessionRequirement, type SessionVariables, type SignedInUser } from './rest/require-session.ts';
export type { AuthDeps } from './application/index.ts';

/** The auth core's dependencies plus the validated OAuth configuration. */
export interface AuthService extends AuthDeps {
  oauth: OAuthConfig;
}

function readOAuthConfig(env: ReadonlyMap<string, string>): OAuthConfig {
  try {
    return parseOAuthConfig(env);
  } catch (error) {
    // The message names variables and rules, never values.
    if (error instanceof OAuthConfigError) throw new AppError('configuration', error.message.replace(/^invalid OAuth configuration/, 'invalid configuration'), { cause: error });
    throw error;
  }
}

export function buildAuthDeps(platform: Platform, env: ReadonlyMap<string, string>): AuthService {
  const config = parseAuthConfig(env);
  const oauth = readOAuthConfig(env);
  // An enabled provider lacking a credential is a misconfiguration like any other: the start
  // stops naming what it lacks, instead of a sign-in button silently missing.
  const lacking = providersNotOffered(oauth).filter(({ missing }) => oauth.enabled && missing.length > 0);
  if (lacking.length > 0) {
    const names = lacking.flatMap(({ missing }) => missing).join(', ');
    const switches = lacking.map(({ provider }) => `${envPrefix(provider)}_ENABLED`).join(', ');
    throw new AppError('configuration', `invalid configuration: ${names} (missing, and ${switches} is true: set them, or switch the provider off)`);
  }
  const offered = offeredProviders(oauth);
  return { platform, config, oauth, offeredProviders: () => offered };
}

export function authRoutes(service: AuthService): Hono {
  const app = new Hono();
  app.route('/', authRestRoutes(service));
  app.route('/', adminRoutes(service));
  app.route(
    '/',
    oauthRoutes({
      auth: service,
      config: service.oauth,
      provider: { fetch: defaultDeps.fetch, now: () => service.platform.now(), secretCache: keyValueSecretCache(service.platform.keyValue, service.platform.logger) },
    }),
  );
  app.route('/', authPageRoutes(service));
  return app;
}
