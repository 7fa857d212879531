/**
 * OAuth sign-in routes (README "OAuth sign-in"):
 *   GET  /api/auth/oauth/<provider>/start?next=/path   → 302 to the provider (or, with the
 *        development bypass, to our own callback)
 *   GET  /api/auth/oauth/<provider>/callback           → query response mode
 *   POST /api/auth/oauth/<provider>/callback           → form_post response mode (provider_c)
 * Success: Set-Cookie and a redirect to the safe next path. Failure: no session; the error
 * envelope (plus `reason`) when the request asks for JSON, else the sign-in error page. Failures
 * are logged with code and reason, never a code, state or token value.
 */
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { AppError } from '../../errors.ts';
import { errorEnvelope, methodNotAllowedResponse, statusForCode } from '../../counter/http-errors.ts';
import { failureDetail } from '../../counter/application/failure-detail.ts';
import { parseCallbackParams } from '../oauth/callback-params.ts';
import { OAuthSignInError } from '../oauth/flow/failures.ts';
import { completeOAuthSignIn, startOAuthSignIn, type OAuthFlowDeps } from '../oauth/flow/sign-in.ts';
import { SignInErrorPage } from '../pages/sign-in-error-page.tsx';

export const OAUTH_PATHS = {
  start: '/api/auth/oauth/:provider/start',
  callback: '/api/auth/oauth/:provider/callback',
} as const;

/** A form_post body holds a code, a state and maybe a small `user` JSON. */
const MAX_CALLBACK_BODY_BYTES = 16 * 1024;
/** The callback URL carries a code and a state: keep it out of Referer headers and caches. */
const PRIVATE = { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' };

const wantsJson = (c: Context) => /\bapplication\/json\b/i.test(c.req.header('accept') ?? '');

export function oauthRoutes(deps: OAuthFlowDeps): Hono {
  const app = new Hono();
  const { logger } = deps.auth.platform;

  const fail = (c: Context, error: unknown): Response => {
    const failure = AppError.from(error);
    const status = statusForCode(failure.code);
    const reason = failure instanceof OAuthSignInError ? failure.reason : undefined;
    const fields: Record<string, unknown> = { code: failure.code, status, method: c.req.method, path: c.req.path, provider: c.req.param('provider') };
    if (failure instanceof OAuthSignInError) {
      fields['reason'] = failure.reason;
      if (failure.detail) fields['detail'] = failure.detail;
    } else if (status >= 500) {
      fields['detail'] = failureDetail(failure);
    }
    logger.log(status >= 500 ? 'error' : 'warn', 'oauth sign-in failed', fields);
    if (wantsJson(c)) {
      const envelope = errorEnvelope(failure);
      return c.json(reason ? { error: { ...envelope.error, reason } } : envelope, status, PRIVATE);
    }
    const page = <SignInErrorPage message={failure.message} code={failure.code} reason={reason} />;
    return c.html(`<!doctype html>${page.toString()}`, status, PRIVATE);
  };

  // Hono runs GET handlers for HEAD: a link checker or prefetcher must neither create states
  // nor consume one and receive a session.
  const isHead = (c: Context) => c.req.method === 'HEAD';

  app.get(OAUTH_PATHS.start, (c) => {
    if (isHead(c)) return methodNotAllowedResponse(c, ['GET'], logger);
    const provider = c.req.param('provider');
    const { location } = startOAuthSignIn(deps, provider, c.req.query('next'));
    logger.log('info', 'oauth sign-in started', { code: 'oauth_start', provider, development: deps.config.developmentCallbackBypass });
    return c.redirect(location, 302);
  });

  const callback = async (c: Context, params: URLSearchParams, redirectStatus: 302 | 303) => {
    const provider = c.req.param('provider')!;
    const done = await completeOAuthSignIn(deps, provider, parseCallbackParams(params));
    logger.log('info', 'signed in', { code: 'auth_oauth_sign_in', provider, user_id: done.userId, linked: done.linked });
    c.header('Set-Cookie', done.session.setCookie);
    for (const [name, value] of Object.entries(PRIVATE)) c.header(name, value);
    return c.redirect(done.next, redirectStatus);
  };

  app.get(OAUTH_PATHS.callback, (c) => (isHead(c) ? methodNotAllowedResponse(c, ['GET', 'POST'], logger) : callback(c, new URL(c.req.url).searchParams, 302)));

  app.post(
    OAUTH_PATHS.callback,
    bodyLimit({ maxSize: MAX_CALLBACK_BODY_BYTES, onError: (c) => fail(c, new AppError('payload_too_large', 'request body exceeds 16 KiB')) }),
    async (c) => {
      const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      if (type !== 'application/x-www-form-urlencoded') throw new AppError('unsupported_media_type', 'the callback takes a form post');
      return callback(c, new URLSearchParams(await c.req.text()), 303);
    },
  );

  app.all(OAUTH_PATHS.start, (c) => methodNotAllowedResponse(c, ['GET'], logger));
  app.all(OAUTH_PATHS.callback, (c) => methodNotAllowedResponse(c, ['GET', 'POST'], logger));

  app.onError((error, c) => fail(c, error));
  return app;
}
