/**
 * The auth pages: GET /login, GET /dashboard (which needs a session, else it redirects to
 * /login?next=/dashboard), and the mailed-link pages /forgot-password, /reset-password, /verify-email, /remove-passkeys, /confirm-email-change, /undo-email-change. Server-rendered Hono JSX in the counter page's shell; no script needed
 * for any core action, and the same Content-Security-Policy as the counter page (no inline code).
 */
import { Hono, type Context } from 'hono';
import { AppError } from '../../errors.ts';
import { errorResponse, methodNotAllowedResponse } from '../../http/errors.ts';
import { findActiveSession, safeNextPath, sessionIdFromCookieHeader, type AuthDeps } from '../application/index.ts';
import { PAGE_HEADERS } from '../../web/security-headers.ts';
import type { HeaderSession } from '../../web/shell.tsx';
import { clearedFormEchoCookie, formEchoFromCookieHeader } from '../rest/form-echo.ts';
import { returnedRefusal } from '../rest/form-return.ts';
import { dashboardResponse, mailPageResponse, passkeyRemovalResponse, type Outcome } from './account-responses.tsx';
import { LoginPage } from './login-page.tsx';
import { relyingParty } from '../passkeys/relying-party.ts';
import { prefersHtml } from '../../http/accept.ts';
import { errorPageResponse } from '../../web/error-page.tsx';
import { EMAIL_CHANGE_PAGES } from '../rest/email-change-routes.ts';
import { ConfirmEmailChangePage, UndoEmailChangePage } from './email-change-pages.tsx';

/** The pages of the mailed-link flows (./mail-pages.tsx). */
export const MAIL_PAGES = ['/forgot-password', '/reset-password', '/verify-email', '/remove-passkeys', EMAIL_CHANGE_PAGES.confirm, EMAIL_CHANGE_PAGES.undo] as const;

/** The mailed-link pages, opened on a host set up without mail. */
const NO_MAIL_WORDS = {
  title: 'This service sends no mail',
  text: 'Resetting a password, confirming an address and removing passkeys work through links sent by mail, and this service is set up without mail. Ask whoever runs it for help.',
  link: { href: '/login', text: 'Back to sign in' },
};

/** The notice or the refusal a page was sent back with (the words are the page's, never the query's). */
function outcomeOf(c: Context): Outcome {
  return { notice: c.req.query('notice'), refusal: returnedRefusal((name) => c.req.query(name)) };
}

export function authPageRoutes(deps: AuthDeps): Hono {
  const app = new Hono();
  const session = (cookie: string | undefined) => findActiveSession(deps, sessionIdFromCookieHeader(cookie, deps.config.cookieSecure));

  app.get('/login', async (c) => {
    const cookie = c.req.header('cookie');
    const current = await session(cookie);
    const echoed = formEchoFromCookieHeader(cookie);
    if (echoed !== undefined) c.header('Set-Cookie', clearedFormEchoCookie(deps.config.cookieSecure));
    const refused = returnedRefusal((name) => c.req.query(name));
    const page = (
      <LoginPage
        next={safeNextPath(c.req.query('next'))}
        error={refused?.code}
        form={refused?.form}
        reason={refused?.reason}
        retryAt={refused?.retryAt}
        now={deps.platform.now()}
        notice={c.req.query('notice')}
        email={echoed}
        minLength={deps.config.passwordMinLength}
        providers={deps.offeredProviders?.() ?? []}
        signedInAs={current ? current.email : undefined}
        passkeys={relyingParty(deps.config) !== undefined}
        canReset={deps.config.mail !== undefined}
      />
    );
    return c.html(`<!doctype html>${page.toString()}`, 200, PAGE_HEADERS);
  });

  app.get('/dashboard', async (c) => {
    const current = await session(c.req.header('cookie'));
    if (!current) return c.redirect(`/login?next=${encodeURIComponent('/dashboard')}`, 302);
    return dashboardResponse(deps, current, outcomeOf(c));
  });

  // The mailed-link pages; without AUTH_PUBLIC_BASE_URL there is no mail and they do not exist.
  const mailOn = () => deps.config.mail !== undefined;
  // A browser is told why (the login page offers no reset without mail, but a bookmark or an old
  // link still lands here); an API client gets the usual 404 envelope.
  const noMail = (c: Context) =>
    prefersHtml(c.req.header('accept')) ? errorPageResponse(404, NO_MAIL_WORDS) : errorResponse(c, new AppError('not_found', 'no route matches this path'), deps.platform.logger);
  /** The header as the session is: a mailed link is often opened signed in. */
  const headerSession = async (cookie: string | undefined): Promise<HeaderSession> => {
    const current = await session(cookie);
    return current ? { state: 'signed-in', email: current.email } : { state: 'signed-out' };
  };
  app.get('/forgot-password', async (c) => {
    if (!mailOn()) return noMail(c);
    const cookie = c.req.header('cookie');
    const email = formEchoFromCookieHeader(cookie);
    const extra: Record<string, string> = email === undefined ? {} : { 'Set-Cookie': clearedFormEchoCookie(deps.config.cookieSecure, '/forgot-password') };
    return mailPageResponse(deps, 'forgot', '', { ...outcomeOf(c), email, session: await headerSession(cookie) }, 200, extra);
  });
  app.get('/reset-password', async (c) =>
    mailOn() ? mailPageResponse(deps, 'reset', c.req.query('token') ?? '', { ...outcomeOf(c), session: await headerSession(c.req.header('cookie')) }) : noMail(c),
  );
  app.get('/verify-email', async (c) =>
    mailOn() ? mailPageResponse(deps, 'verify', c.req.query('token') ?? '', { ...outcomeOf(c), session: await headerSession(c.req.header('cookie')) }) : noMail(c),
  );
  for (const [page, Page] of [
    [EMAIL_CHANGE_PAGES.confirm, ConfirmEmailChangePage],
    [EMAIL_CHANGE_PAGES.undo, UndoEmailChangePage],
  ] as const) {
    app.get(page, async (c) => {
      if (!mailOn()) return noMail(c);
      const refused = returnedRefusal((name) => c.req.query(name));
      const state = {
        token: c.req.query('token') ?? '',
        session: await headerSession(c.req.header('cookie')),
        error: refused?.code,
        retryAt: refused?.retryAt,
        now: deps.platform.now(),
      };
      return c.html(`<!doctype html>${(<Page state={state} />).toString()}`, 200, PAGE_HEADERS);
    });
  }
  app.get('/remove-passkeys', (c) =>
    mailOn() ? passkeyRemovalResponse(deps, c.req.query('token') ?? '', c.req.query('after') === 'reset', returnedRefusal((name) => c.req.query(name))?.code) : noMail(c),
  );

  // Registered last, so they only see methods the routes above did not take (HEAD follows GET).
  for (const path of ['/login', '/dashboard', ...MAIL_PAGES]) app.all(path, (c) => methodNotAllowedResponse(c, ['GET', 'HEAD'], deps.platform.logger));

  app.onError((error, c) => errorResponse(c, AppError.from(error), deps.platform.logger));
  return app;
}
