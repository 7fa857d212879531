/**
 * The auth pages: GET /login and GET /dashboard (which needs a session, else it redirects to
 * /login?next=/dashboard). Server-rendered Hono JSX, no script needed.
 */
import { Hono } from 'hono';
import { AppError } from '../../errors.ts';
import { errorResponse } from '../../counter/http-errors.ts';
import { AUTH_COLLECTIONS, findActiveSession, safeNextPath, sessionIdFromCookieHeader, type AuthDeps } from '../application/index.ts';
import { DashboardPage } from './dashboard-page.tsx';
import { LoginPage } from './login-page.tsx';

const NO_STORE = { 'Cache-Control': 'no-store' };

/** Providers linked to the user, from the auth projection's users read model. */
function linkedProviders(deps: AuthDeps, userId: string): string[] {
  const doc = deps.platform.projections.getDocument({ collection: AUTH_COLLECTIONS.users, id: userId });
  if (!doc) return [];
  const providers = (JSON.parse(doc.body) as { providers?: unknown }).providers;
  return Array.isArray(providers) ? providers.filter((p): p is string => typeof p === 'string') : [];
}

export function authPageRoutes(deps: AuthDeps): Hono {
  const app = new Hono();
  const session = (cookie: string | undefined) => findActiveSession(deps, sessionIdFromCookieHeader(cookie));

  app.get('/login', async (c) => {
    const current = await session(c.req.header('cookie'));
    const page = (
      <LoginPage
        next={safeNextPath(c.req.query('next'))}
        error={c.req.query('error')}
        form={c.req.query('form')}
        minLength={deps.config.passwordMinLength}
        providers={deps.offeredProviders?.() ?? []}
        signedInAs={current ? current.email : undefined}
      />
    );
    return c.html(`<!doctype html>${page.toString()}`, 200, NO_STORE);
  });

  app.get('/dashboard', async (c) => {
    const current = await session(c.req.header('cookie'));
    if (!current) return c.redirect(`/login?next=${encodeURIComponent('/dashboard')}`, 302);
    const page = <DashboardPage session={current} providers={linkedProviders(deps, current.userId)} />;
    return c.html(`<!doctype html>${page.toString()}`, 200, NO_STORE);
  });

  app.onError((error, c) => errorResponse(c, AppError.from(error), deps.platform.logger));
  return app;
}
