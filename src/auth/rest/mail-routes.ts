/**
 * The routes of the mailed-link flows (docs/auth.md, "Email verification and password reset"):
 *   POST /api/auth/password/forgot              { email } → 202, the same for any address
 *   POST /api/auth/password/reset               { token, password, remove_passkeys? } → 200; every session of the account ends
 *   POST /api/auth/password/change              { current_password, new_password, remove_passkeys? } (signed in) → 200; the other sessions end
 *   POST /api/auth/email/verify                 { token } → 200; the address is verified
 *   POST /api/auth/email/verification/resend    (signed in) → 202; a new link is mailed (429 past a few an hour)
 * Each takes JSON or an HTML form post (the pages, without JavaScript): a form gets a 303 to the
 * page that shows the outcome, or, refused, back to its own page with the refusal (./form-return.ts). Every one passes the Origin / Sec-Fetch-Site check of the auth
 * forms. Without AUTH_PUBLIC_BASE_URL there is no mail: the mail routes answer 404.
 */
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import * as v from 'valibot';
import { AppError, RateLimitedError } from '../../errors.ts';
import { errorResponse, methodNotAllowedResponse } from '../../http/errors.ts';
import { clientAddress } from '../../http/client-address.ts';
import {
  changePassword,
  clearedSessionCookie,
  findActiveSession,
  requestPasswordReset,
  resendVerification,
  resetPassword,
  sessionIdFromCookieHeader,
  throttle,
  verifyEmail,
  type AuthDeps,
} from '../application/index.ts';
import { formEchoCookie } from './form-echo.ts';
import { refusedFormUrl } from './form-return.ts';
import { MAIL_LINK_PATHS } from '../application/mail-links.ts';
import { listPasskeys } from '../passkeys/manage.ts';
import { issueRemovalLinkAfterReset } from '../passkeys/removal-link.ts';
import { inputMode, isFormPost, readInput } from './input.ts';
import { RemovePasskeysField, wantsPasskeysRemoved } from './remove-passkeys-field.ts';

export const MAIL_PATHS = {
  forgot: '/api/auth/password/forgot',
  reset: '/api/auth/password/reset',
  change: '/api/auth/password/change',
  verify: '/api/auth/email/verify',
  resend: '/api/auth/email/verification/resend',
} as const;

const text = (name: string) => v.pipe(v.string(`${name} must be a string`), v.maxLength(4096, `${name} is too long`));
export const ForgotSchema = v.object({ email: text('email') }, 'body must be a JSON object with string "email"');
export const ResetSchema = v.object(
  { token: text('token'), password: text('password'), remove_passkeys: RemovePasskeysField },
  'body must be a JSON object with string "token" and "password"',
);
export const ChangeSchema = v.object(
  { current_password: text('current_password'), new_password: text('new_password'), remove_passkeys: RemovePasskeysField },
  'body must be a JSON object with string "current_password" and "new_password"',
);
export const VerifySchema = v.object({ token: text('token') }, 'body must be a JSON object with string "token"');

/** The one answer to "forgot password", whatever the address. */
export const RESET_REQUESTED = {
  status: 'accepted',
  message: 'If an account uses this address, a link to reset its password is on its way. It works for 30 minutes.',
} as const;

const NO_STORE = { 'Cache-Control': 'no-store' };

/** The page each form is on, and its name there (the account page holds several forms). */
interface FormPage {
  path: '/forgot-password' | '/reset-password' | '/verify-email' | '/dashboard';
  form: string;
}
const FORM_PAGES = {
  forgot: { path: '/forgot-password', form: 'forgot' },
  reset: { path: '/reset-password', form: 'reset' },
  verify: { path: '/verify-email', form: 'verify' },
  change: { path: '/dashboard', form: 'password' },
  resend: { path: '/dashboard', form: 'verification' },
} as const satisfies Record<string, FormPage>;

export function mailRoutes(deps: AuthDeps, guards: { sameSite: MiddlewareHandler; limit: MiddlewareHandler }): Hono {
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

  /**
   * A JSON caller gets the error; a form goes back to its page (post/redirect/get) with the refusal
   * in the page's query, its link token kept, a typed email in the echo cookie. A signed-in form
   * whose session is gone goes to /login, to come back to the account page.
   */
  const failed = (c: Context, error: unknown, page: FormPage, keep: { token?: string | undefined; email?: string | undefined } = {}) => {
    const failure = AppError.from(error);
    if (inputModeOrJson(c) === 'json') throw failure;
    void errorResponse(c, failure, logger);
    c.header('Cache-Control', 'no-store');
    if (failure instanceof RateLimitedError) c.header('Retry-After', String(failure.retryAfterSeconds));
    if (page.path === '/dashboard' && failure.code === 'unauthorized') return c.redirect(`/login?next=${encodeURIComponent('/dashboard')}`, 303);
    if (page.path === '/forgot-password') {
      const echo = formEchoCookie(keep.email, config.cookieSecure, '/forgot-password');
      if (echo) c.header('Set-Cookie', echo);
    }
    return c.redirect(refusedFormUrl(page.path, page.form, failure, deps.platform.now(), { token: keep.token }), 303);
  };

  app.post(MAIL_PATHS.forgot, limit, sameSite, mailOn, async (c) => {
    let email: string | undefined;
    try {
      await throttle(deps, 'login', client(c));
      const { mode, input } = await readInput(c, ForgotSchema);
      email = input.email;
      await requestPasswordReset(deps, input.email, client(c));
      c.header('Cache-Control', 'no-store');
      return mode === 'json' ? c.json(RESET_REQUESTED, 202) : c.redirect('/forgot-password?notice=sent', 303);
    } catch (error) {
      return failed(c, error, FORM_PAGES.forgot, { email });
    }
  });

  app.post(MAIL_PATHS.reset, limit, sameSite, mailOn, async (c) => {
    let token: string | undefined;
    try {
      await throttle(deps, 'login', client(c));
      const { mode, input } = await readInput(c, ResetSchema);
      token = input.token;
      const done = await resetPassword(deps, input.token, input.password, await session(c), { removePasskeys: wantsPasskeysRemoved(input.remove_passkeys) });
      // This browser's session ended with the others: its cookie goes too.
      c.header('Set-Cookie', clearedSessionCookie(config.cookieSecure));
      c.header('Cache-Control', 'no-store');
      const passkeys = listPasskeys(deps, done.userId);
      if (mode === 'json') return c.json({ status: 'password_reset', sessions_ended: done.sessionsEnded, passkeys_removed: done.passkeysRemoved, passkeys }, 200);
      // The passkeys that survived the reset, on a page with a form to remove them (its link proves this mailbox).
      const review = passkeys.length > 0 ? await issueRemovalLinkAfterReset(deps, done.userId, done.emailHash) : undefined;
      return c.redirect(review === undefined ? '/login?notice=password_reset' : `${MAIL_LINK_PATHS.passkeys}?token=${review}&after=reset`, 303);
    } catch (error) {
      return failed(c, error, FORM_PAGES.reset, { token });
    }
  });

  app.post(MAIL_PATHS.change, limit, sameSite, async (c) => {
    try {
      const current = await session(c);
      if (!current) throw new AppError('unauthorized', 'sign in first');
      const { mode, input } = await readInput(c, ChangeSchema);
      const done = await changePassword(deps, current, input.current_password, input.new_password, client(c), { removePasskeys: wantsPasskeysRemoved(input.remove_passkeys) });
      c.header('Cache-Control', 'no-store');
      if (mode === 'json') return c.json({ status: 'password_changed', sessions_ended: done.sessionsEnded, passkeys_removed: done.passkeysRemoved }, 200);
      return c.redirect('/dashboard?notice=password_changed', 303);
    } catch (error) {
      return failed(c, error, FORM_PAGES.change);
    }
  });

  app.post(MAIL_PATHS.verify, limit, sameSite, mailOn, async (c) => {
    let token: string | undefined;
    try {
      await throttle(deps, 'login', client(c));
      const { mode, input } = await readInput(c, VerifySchema);
      token = input.token;
      const current = await session(c);
      await verifyEmail(deps, input.token, current);
      c.header('Cache-Control', 'no-store');
      if (mode === 'json') return c.json({ status: 'email_verified' }, 200);
      return c.redirect(current ? '/dashboard?notice=email_verified' : '/login?notice=email_verified', 303);
    } catch (error) {
      return failed(c, error, FORM_PAGES.verify, { token });
    }
  });

  app.post(MAIL_PATHS.resend, limit, sameSite, mailOn, async (c) => {
    try {
      const current = await session(c);
      if (!current) throw new AppError('unauthorized', 'sign in first');
      await resendVerification(deps, current, client(c));
      c.header('Cache-Control', 'no-store');
      return isFormPost(c) ? c.redirect('/dashboard?notice=verification_sent', 303) : c.json({ status: 'accepted' }, 202);
    } catch (error) {
      return failed(c, error, FORM_PAGES.resend);
    }
  });

  for (const path of Object.values(MAIL_PATHS)) app.all(path, (c) => methodNotAllowedResponse(c, ['POST'], logger));
  app.onError((error, c) => errorResponse(c, AppError.from(error), logger, NO_STORE));
  return app;
}

/** The answer's shape by Content-Type; a missing or foreign one answers as JSON (its 415 is JSON). */
function inputModeOrJson(c: Context): 'json' | 'form' {
  try {
    return inputMode(c);
  } catch {
    return 'json';
  }
}
