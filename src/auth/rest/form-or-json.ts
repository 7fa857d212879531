/**
 * The one shape of the auth routes that take JSON or an HTML form post (the account pages work
 * without JavaScript): find the session when the route needs one, run the route's handler, and
 * answer by the kind of request, JSON or a 303 to the page that shows the outcome, never stored.
 * A refusal is thrown for a JSON caller (the routes' onError answers it in the error envelope);
 * a form goes back to its page with the refusal in the query (post/redirect/get, ./form-return.ts),
 * or to /login when its session is gone, logged with its code as a JSON refusal is, never stored,
 * and a rate limit with Retry-After. What a route does beyond this (clearing the cookie, choosing
 * the page by session) stays in its handler.
 */
import type { Context, Handler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { AppError, RateLimitedError } from '../../errors.ts';
import { errorResponse } from '../../http/errors.ts';
import { safeNextPath, type ActiveSession, type AuthDeps } from '../application/index.ts';
import { formEchoCookie, type EchoPage } from './form-echo.ts';
import { refusedFormUrl } from './form-return.ts';
import { inputMode, type InputMode } from './input.ts';
import { signedInSession } from './require-session.ts';

/** The page a form is on, and its name there (a page may hold several forms). */
export interface FormPage {
  readonly path: string;
  readonly form: string;
}

/**
 * What a handler answers: the JSON body (and status) for an API caller, and where a form post
 * goes next (a function when finding the page takes work only a form needs).
 */
export interface Answer {
  readonly json: unknown;
  readonly status?: ContentfulStatusCode;
  readonly see: string | (() => Promise<string>);
}

/**
 * What a refused form shows again: a link's `token` and a sign-in's `next` (made safe here) come
 * back in the page's query; a typed `email` in the echo cookie (never the query).
 */
export interface Kept {
  token?: string | undefined;
  next?: string | undefined;
  email?: string | undefined;
}

/** What the handler is given: the answer's kind, and where to keep what a refused form shows again. */
export interface Call {
  readonly mode: InputMode;
  keep(values: Kept): void;
}

export interface SignedInCall extends Call {
  readonly session: ActiveSession;
}

export interface RouteOptions {
  /** Every post is a form's, whatever its Content-Type (a route only the page posts to). */
  readonly formOnly?: boolean;
  /** The page whose echo cookie keeps a refused form's typed email. */
  readonly echo?: EchoPage;
  /** A refusal the route logs in its own words: true when it did (else it is logged as any rejected request). */
  readonly logsOwn?: (failure: AppError) => boolean;
}

/** The answer's kind by Content-Type; a missing or foreign one answers as JSON (its 415 is JSON). */
function answerMode(c: Context): InputMode {
  try {
    return inputMode(c);
  } catch {
    return 'json';
  }
}

export interface FormOrJson {
  /** A route for anyone: the handler finds the session itself when it wants one. */
  anyone(page: FormPage, handler: (c: Context, call: Call) => Promise<Answer>, options?: RouteOptions): Handler;
  /** A route for the signed-in: without a session, 401 `unauthorized`, or for a form, /login and back to the page. */
  signedIn(page: FormPage, handler: (c: Context, call: SignedInCall) => Promise<Answer>, options?: RouteOptions): Handler;
}

export function formOrJson(deps: AuthDeps): FormOrJson {
  const { logger } = deps.platform;

  const refused = (c: Context, error: unknown, mode: InputMode, page: FormPage, signedOutToLogin: boolean, kept: Kept, options: RouteOptions) => {
    const failure = AppError.from(error);
    if (mode === 'json') throw failure;
    if (!options.logsOwn?.(failure)) void errorResponse(c, failure, logger);
    c.header('Cache-Control', 'no-store');
    if (failure instanceof RateLimitedError) c.header('Retry-After', String(failure.retryAfterSeconds));
    if (signedOutToLogin && failure.code === 'unauthorized') return c.redirect(`/login?next=${encodeURIComponent(page.path)}`, 303);
    if (options.echo) {
      const echo = formEchoCookie(kept.email, deps.config.cookieSecure, options.echo);
      if (echo) c.header('Set-Cookie', echo);
    }
    return c.redirect(
      refusedFormUrl(page.path, page.form, failure, deps.platform.now(), { token: kept.token, next: kept.next === undefined ? undefined : safeNextPath(kept.next) }),
      303,
    );
  };

  const answered = async (c: Context, mode: InputMode, answer: Answer) => {
    c.header('Cache-Control', 'no-store');
    if (mode === 'json') return c.json(answer.json, answer.status ?? 200);
    return c.redirect(typeof answer.see === 'string' ? answer.see : await answer.see(), 303);
  };

  const route =
    (page: FormPage, signedOutToLogin: boolean, handler: (c: Context, call: Call) => Promise<Answer>, options: RouteOptions): Handler =>
    async (c) => {
      const mode = options.formOnly ? 'form' : answerMode(c);
      const kept: Kept = {};
      try {
        return await answered(c, mode, await handler(c, { mode, keep: (values) => void Object.assign(kept, values) }));
      } catch (error) {
        return refused(c, error, mode, page, signedOutToLogin, kept, options);
      }
    };

  return {
    anyone: (page, handler, options = {}) => route(page, false, handler, options),
    signedIn: (page, handler, options = {}) => route(page, true, async (c, call) => handler(c, { ...call, session: await signedInSession(deps, c.req.raw.headers) }), options),
  };
}
