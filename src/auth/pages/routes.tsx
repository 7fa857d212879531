/**
 * The auth pages: GET /login and GET /dashboard (which needs a session, else it redirects to
 * /login?next=/dashboard). Server-rendered Hono JSX in the counter page's shell; no script needed
 * for any core action, and the same Content-Security-Policy as the counter page (no inline code).
 */
import { Hono } from 'hono';
import { AppError } from '../../errors.ts';
import { errorResponse, methodNotAllowedResponse } from '../../http/errors.ts';
import { AUTH_COLLECTIONS, findActiveSession, listSessions, safeNextPath, sessionIdFromCookieHeader, type AuthDeps } from '../application/index.ts';
import { PAGE_HEADERS } from '../../web/security-headers.ts';
import { clearedFormEchoCookie, formEchoFromCookieHeader } from '../rest/form-echo.ts';
import { DashboardPage, type SessionActions, type SessionRow } from './dashboard-page.tsx';
import { LoginPage } from './login-page.tsx';
import { listPasskeys } from '../passkeys/manage.ts';
import { relyingParty } from '../passkeys/relying-party.ts';

/** Providers linked to the user, from the auth projection's users read model. */
function linkedProviders(deps: AuthDeps, userId: string): string[] {
  const doc = deps.platform.projections.getDocument({ collection: AUTH_COLLECTIONS.users, id: userId });
  if (!doc) return [];
  const providers = (JSON.parse(doc.body) as { providers?: unknown }).providers;
  return Array.isArray(providers) ? providers.filter((p): p is string => typeof p === 'string') : [];
}

/** The session forms post to the form variants of the session routes (src/auth/rest/session-routes.ts). */
const SESSION_FORM_ACTIONS: SessionActions = {
  revoke: (handle) => `/api/auth/sessions/${encodeURIComponent(handle)}/revoke`,
  revokeAll: '/api/auth/sessions/revoke-all',
};

export function authPageRoutes(deps: AuthDeps): Hono {
  const app = new Hono();
  const session = (cookie: string | undefined) => findActiveSession(deps, sessionIdFromCookieHeader(cookie, deps.config.cookieSecure));

  app.get('/login', async (c) => {
    const cookie = c.req.header('cookie');
    const current = await session(cookie);
    const echoed = formEchoFromCookieHeader(cookie);
    if (echoed !== undefined) c.header('Set-Cookie', clearedFormEchoCookie(deps.config.cookieSecure));
    const page = (
      <LoginPage
        next={safeNextPath(c.req.query('next'))}
        error={c.req.query('error')}
        form={c.req.query('form')}
        notice={c.req.query('notice')}
        email={echoed}
        minLength={deps.config.passwordMinLength}
        providers={deps.offeredProviders?.() ?? []}
        signedInAs={current ? current.email : undefined}
        passkeys={relyingParty(deps.config) !== undefined}
      />
    );
    return c.html(`<!doctype html>${page.toString()}`, 200, PAGE_HEADERS);
  });

  app.get('/dashboard', async (c) => {
    const current = await session(c.req.header('cookie'));
    if (!current) return c.redirect(`/login?next=${encodeURIComponent('/dashboard')}`, 302);
    const rows: SessionRow[] = listSessions(deps, current).map((s) => ({
      handle: s.id,
      current: s.current,
      device: s.device,
      issuedAt: s.issuedAt,
      lastSeenAt: s.lastSeenAt,
      expiresAt: s.expiresAt,
    }));
    const passkeys = relyingParty(deps.config) ? listPasskeys(deps, current.userId) : undefined;
    const page = (
      <DashboardPage
        session={current}
        providers={linkedProviders(deps, current.userId)}
        sessions={rows}
        actions={SESSION_FORM_ACTIONS}
        passkeys={passkeys}
        deletionRefused={c.req.query('account_error') === 'reauth'}
      />
    );
    return c.html(`<!doctype html>${page.toString()}`, 200, PAGE_HEADERS);
  });

  // Registered last, so they only see methods the routes above did not take (HEAD follows GET).
  for (const path of ['/login', '/dashboard']) app.all(path, (c) => methodNotAllowedResponse(c, ['GET', 'HEAD'], deps.platform.logger));

  app.onError((error, c) => errorResponse(c, AppError.from(error), deps.platform.logger));
  return app;
}
