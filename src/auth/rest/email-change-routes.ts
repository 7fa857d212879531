/**
 * The routes of changing the email address (docs/auth.md, "Changing the email address"):
 *   POST /api/auth/email/change           { email, password? } (signed in) → 202; a link is mailed to the new address
 *   POST /api/auth/email/change/cancel    (signed in) → 200; the pending change and its link are dropped
 *   POST /api/auth/email/change/confirm   { token } → 200; the account's address is the new one
 *   POST /api/auth/email/change/undo      { token } → 200; every session ends, the old address is restored while free
 * Each takes JSON or an HTML form post: a form gets a 303 to the page that shows the outcome, or,
 * refused, back to its own page with the refusal (./form-return.ts). Every one passes the Origin /
 * Sec-Fetch-Site check of the auth forms. Without AUTH_PUBLIC_BASE_URL there is no mail: 404.
 */
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import * as v from 'valibot';
import { AppError, RateLimitedError } from '../../errors.ts';
import { errorResponse, methodNotAllowedResponse } from '../../http/errors.ts';
import { clientAddress } from '../../http/client-address.ts';
import {
  cancelEmailChange,
  clearedSessionCookie,
  confirmEmailChange,
  findActiveSession,
  requestEmailChange,
  sessionIdFromCookieHeader,
  throttle,
  undoEmailChange,
  type AuthDeps,
} from '../application/index.ts';
import { refusedFormUrl } from './form-return.ts';
import { inputMode, isFormPost, readInput } from './input.ts';

export const EMAIL_CHANGE_PATHS = {
  change: '/api/auth/email/change',
  cancel: '/api/auth/email/change/cancel',
  confirm: '/api/auth/email/change/confirm',
  undo: '/api/auth/email/change/undo',
} as const;

/** The pages the mailed links open (src/auth/pages/email-change-pages.tsx). */
export const EMAIL_CHANGE_PAGES = { confirm: '/confirm-email-change', undo: '/undo-email-change' } as const;

const text = (name: string) => v.pipe(v.string(`${name} must be a string`), v.maxLength(4096, `${name} is too long`));
export const EmailChangeSchema = v.object(
  { email: text('email'), password: v.optional(text('password')) },
  'body must be a JSON object with string "email" and an optional string "password"',
);
export const EmailChangeTokenSchema = v.object({ token: text('token') }, 'body must be a JSON object with string "token"');

const NO_STORE = { 'Cache-Control': 'no-store' };

interface FormPage {
  path: string;
  form: string;
}
const FORM_PAGES = {
  change: { path: '/dashboard', form: 'email_change' },
  cancel: { path: '/dashboard', form: 'email_change' },
  confirm: { path: EMAIL_CHANGE_PAGES.confirm, form: 'confirm' },
  undo: { path: EMAIL_CHANGE_PAGES.undo, form: 'undo' },
} as const satisfies Record<string, FormPage>;

/** The answer's shape by Content-Type; a missing or foreign one answers as JSON (its 415 is JSON). */
function modeOrJson(c: Context): 'json' | 'form' {
  try {
    return inputMode(c);
  } catch {
    return 'json';
  }
}

export function emailChangeRoutes(deps: AuthDeps, guards: { sameSite: MiddlewareHandler; limit: MiddlewareHandler }): Hono {
  const app = new Hono();
  const { logger } = deps.platform;
  const { config } = deps;
  const session = (c: Context) => findActiveSession(deps, sessionIdFromCookieHeader(c.req.header('cookie'), config.cookieSecure));
  const client = (c: Context) => clientAddress(c.req.raw.headers, config.clientAddressTrusted);
  const mailOn: MiddlewareHandler = async (_c, next) => {
    if (!config.mail) throw new AppError('not_found', 'mail is not configured on this service');
    await next();
  };
  const { sameSite, limit } = guards;

  /** A JSON caller gets the error; a form goes back to its page with the refusal (a signed-out account form: to /login). */
  const failed = (c: Context, error: unknown, page: FormPage, token?: string) => {
    const failure = AppError.from(error);
    if (modeOrJson(c) === 'json') throw failure;
    void errorResponse(c, failure, logger);
    c.header('Cache-Control', 'no-store');
    if (failure instanceof RateLimitedError) c.header('Retry-After', String(failure.retryAfterSeconds));
    if (page.path === '/dashboard' && failure.code === 'unauthorized') return c.redirect(`/login?next=${encodeURIComponent('/dashboard')}`, 303);
    return c.redirect(refusedFormUrl(page.path, page.form, failure, deps.platform.now(), { token }), 303);
  };

  app.post(EMAIL_CHANGE_PATHS.change, limit, sameSite, mailOn, async (c) => {
    try {
      const current = await session(c);
      if (!current) throw new AppError('unauthorized', 'sign in first');
      const { mode, input } = await readInput(c, EmailChangeSchema);
      const pending = await requestEmailChange(deps, current, input.email, input.password === '' ? undefined : input.password, client(c));
      c.header('Cache-Control', 'no-store');
      if (mode === 'form') return c.redirect('/dashboard?notice=email_change_sent', 303);
      return c.json({ status: 'accepted', email: pending.email, expires_at: new Date(pending.expiresAt).toISOString() }, 202);
    } catch (error) {
      return failed(c, error, FORM_PAGES.change);
    }
  });

  app.post(EMAIL_CHANGE_PATHS.cancel, limit, sameSite, mailOn, async (c) => {
    try {
      const current = await session(c);
      if (!current) throw new AppError('unauthorized', 'sign in first');
      // Any body is ignored, as for "resend".
      const form = isFormPost(c);
      await cancelEmailChange(deps, current.userId);
      c.header('Cache-Control', 'no-store');
      return form ? c.redirect('/dashboard?notice=email_change_cancelled', 303) : c.json({ status: 'cancelled' }, 200);
    } catch (error) {
      return failed(c, error, FORM_PAGES.cancel);
    }
  });

  app.post(EMAIL_CHANGE_PATHS.confirm, limit, sameSite, mailOn, async (c) => {
    let token: string | undefined;
    try {
      await throttle(deps, 'login', client(c));
      const { mode, input } = await readInput(c, EmailChangeTokenSchema);
      token = input.token;
      const current = await session(c);
      const changed = await confirmEmailChange(deps, input.token, current);
      c.header('Cache-Control', 'no-store');
      if (mode === 'json') return c.json({ status: 'email_changed', email: changed.email }, 200);
      return c.redirect(current ? '/dashboard?notice=email_changed' : '/login?notice=email_changed', 303);
    } catch (error) {
      return failed(c, error, FORM_PAGES.confirm, token);
    }
  });

  app.post(EMAIL_CHANGE_PATHS.undo, limit, sameSite, mailOn, async (c) => {
    let token: string | undefined;
    try {
      await throttle(deps, 'login', client(c));
      const { mode, input } = await readInput(c, EmailChangeTokenSchema);
      token = input.token;
      const undone = await undoEmailChange(deps, input.token, await session(c));
      // Every session of the account ended, this browser's too when it was one of them.
      c.header('Set-Cookie', clearedSessionCookie(config.cookieSecure));
      c.header('Cache-Control', 'no-store');
      if (mode === 'json') return c.json({ status: 'email_change_undone', address_restored: undone.restored, sessions_ended: undone.sessionsEnded }, 200);
      return c.redirect(`/login?notice=${undone.restored ? 'email_change_undone' : 'email_change_undone_kept'}`, 303);
    } catch (error) {
      return failed(c, error, FORM_PAGES.undo, token);
    }
  });

  for (const path of Object.values(EMAIL_CHANGE_PATHS)) app.all(path, (c) => methodNotAllowedResponse(c, ['POST'], logger));
  app.onError((error, c) => errorResponse(c, AppError.from(error), logger, NO_STORE));
  return app;
}
