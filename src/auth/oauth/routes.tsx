/**
 * OAuth sign-in routes (docs/auth.md, "OAuth sign-in"):
 *   GET  /api/auth/oauth/<provider>/start?next=/path   → 302 to the provider (or, with the
 *        development bypass, to our own callback)
 *   GET  /api/auth/oauth/<provider>/callback           → query response mode
 *   POST /api/auth/oauth/<provider>/callback           → form_post response mode (provider_c)
 *   POST /api/auth/oauth/<provider>/link               → "Link <provider>" on the account page: the
 *        same flow with a link intent bound to the signed-in session (../oauth/flow/link.ts); a
 *        same-site form post only, so another site cannot start a link
 * Start sets the browser-binding cookie (../oauth/flow/browser-binding.ts); the callback needs it.
 * Success: Set-Cookie and a redirect to the safe next path (a link: no new session, a redirect to
 * the account page). Failure: no session; the error
 * envelope (plus `reason`) when the request asks for JSON, else the sign-in error page. Failures
 * are logged with code and reason, never a code, state or token value.
 */
import { deviceHint } from '../domain/device-hint.ts';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { getCookie } from 'hono/cookie';
import { AppError, RateLimitedError, failureDetail } from '../../errors.ts';
import { errorEnvelope, methodNotAllowedResponse, statusForCode } from '../../http/errors.ts';
import { parseCallbackParams } from './callback-params.ts';
import { bindingCookieName, bindingFromCookie } from './flow/browser-binding.ts';
import { OAuthSignInError } from './flow/failures.ts';
import { linkIntentFor } from './flow/link.ts';
import { completeOAuthCallback, startOAuthSignIn, type OAuthFlowDeps } from './flow/sign-in.ts';
import { SignInErrorPage } from '../pages/sign-in-error-page.tsx';
import { PAGE_HEADERS } from '../../web/security-headers.ts';
import { findActiveSession, revokePreviousSession, sessionIdFromCookieHeader, sha256Hex, throttle } from '../application/index.ts';
import { clientAddress } from '../../http/client-address.ts';
import { isCrossSiteSubresource } from '../rest/fetch-metadata.ts';
import { originCheck } from '../rest/origin-check.ts';

const OAUTH_PATHS = {
  start: '/api/auth/oauth/:provider/start',
  callback: '/api/auth/oauth/:provider/callback',
  link: '/api/auth/oauth/:provider/link',
} as const;

/** A link start is an empty form post; anything bigger is not one. */
const MAX_LINK_BODY_BYTES = 1024;

/** A form_post body holds a code, a state and maybe a small `user` JSON. */
const MAX_CALLBACK_BODY_BYTES = 16 * 1024;
/** The callback URL carries a code and a state: keep it out of Referer headers and caches. */
const PRIVATE = { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' };

const wantsJson = (c: Context) => /\bapplication\/json\b/i.test(c.req.header('accept') ?? '');

export function oauthRoutes(deps: OAuthFlowDeps): Hono {
  const app = new Hono();
  const { logger } = deps.auth.platform;

  const fail = async (c: Context, error: unknown): Promise<Response> => {
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
    logger.log(status >= 500 ? 'error' : 'info', 'oauth sign-in failed', fields);
    if (wantsJson(c)) {
      const envelope = errorEnvelope(failure);
      if (failure instanceof RateLimitedError) c.header('Retry-After', String(failure.retryAfterSeconds));
      return c.json(reason ? { error: { ...envelope.error, reason } } : envelope, status, PRIVATE);
    }
    if (failure instanceof RateLimitedError) c.header('Retry-After', String(failure.retryAfterSeconds));
    const linking = c.req.path.endsWith('/link') || reason?.startsWith('oauth_link_') === true;
    const page = <SignInErrorPage message={failure.message} code={failure.code} reason={reason} linking={linking} />;
    // The page headers of / and /login; PRIVATE keeps no-referrer (the callback URL carried code and state).
    return c.html(`<!doctype html>${page.toString()}`, status, { ...PAGE_HEADERS, ...PRIVATE });
  };

  // Hono runs GET handlers for HEAD: a link checker or prefetcher must neither create states
  // nor consume one and receive a session.
  const isHead = (c: Context) => c.req.method === 'HEAD';
  const binding = (c: Context) => bindingFromCookie(getCookie(c, bindingCookieName(deps.config.cookieSecure)));

  app.get(OAUTH_PATHS.start, async (c) => {
    if (isHead(c)) return methodNotAllowedResponse(c, ['GET'], logger);
    // An <img> or fetch() on another site must not write a state (./fetch-metadata.ts).
    if (isCrossSiteSubresource(c.req.raw.headers)) throw new OAuthSignInError('oauth_start_cross_site');
    // Each start writes a state record: bounded per client and in total (docs/security.md).
    await throttle(deps.auth, 'start', clientAddress(c.req.raw.headers, deps.auth.config.clientAddressTrusted));
    const provider = c.req.param('provider');
    const { location, setCookie } = startOAuthSignIn(deps, provider, c.req.query('next'), binding(c));
    logger.log('info', 'oauth sign-in started', { code: 'oauth_start', provider, development: deps.config.developmentCallbackBypass });
    c.header('Set-Cookie', setCookie);
    c.header('Cache-Control', 'no-store');
    return c.redirect(location, 302);
  });

  const sessionCookie = (c: Context) => sessionIdFromCookieHeader(c.req.header('cookie'), deps.config.cookieSecure);

  // "Link <provider>": a same-site form post of a signed-in account with a verified address.
  app.post(
    OAUTH_PATHS.link,
    bodyLimit({ maxSize: MAX_LINK_BODY_BYTES, onError: (c) => fail(c, new AppError('payload_too_large', 'request body exceeds 1 KiB')) }),
    originCheck(deps.auth.config),
    async (c) => {
      const provider = c.req.param('provider');
      const intent = await linkIntentFor(deps.auth, await findActiveSession(deps.auth, sessionCookie(c)));
      await throttle(deps.auth, 'start', clientAddress(c.req.raw.headers, deps.auth.config.clientAddressTrusted));
      const { location, setCookie } = startOAuthSignIn(deps, provider, undefined, binding(c), intent);
      logger.log('info', 'oauth link started', { code: 'oauth_link_start', provider, user_id: intent.userId, development: deps.config.developmentCallbackBypass });
      c.header('Set-Cookie', setCookie);
      c.header('Cache-Control', 'no-store');
      return c.redirect(location, 303);
    },
  );

  const callback = async (c: Context, params: URLSearchParams, redirectStatus: 302 | 303) => {
    const provider = c.req.param('provider')!;
    const held = sessionCookie(c);
    const done = await completeOAuthCallback(deps, provider, parseCallbackParams(params), {
      binding: binding(c),
      device: deviceHint(c.req.header('user-agent')),
      sessionHash: held === undefined ? undefined : await sha256Hex(held),
      formPost: c.req.method === 'POST',
    });
    for (const [name, value] of Object.entries(PRIVATE)) c.header(name, value);
    if (done.kind === 'linked') {
      // The browser keeps the session it has: a link signs nobody in.
      logger.log('info', 'provider identity linked from the account', { code: 'auth_identity_linked', provider, user_id: done.userId, already: done.already });
      return c.redirect(done.next, redirectStatus);
    }
    // Session fixation: the session this browser held before ends with the new sign-in.
    await revokePreviousSession(deps.auth, held);
    logger.log('info', 'signed in', { code: 'auth_oauth_sign_in', provider, user_id: done.userId, linked: done.linked });
    c.header('Set-Cookie', done.session.setCookie);
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
  app.all(OAUTH_PATHS.link, (c) => methodNotAllowedResponse(c, ['POST'], logger));

  app.onError((error, c) => fail(c, error));
  return app;
}
