/**
 * Cross-site request refusal for every state-changing browser-reachable route (auth forms, counter
 * REST POSTs, server functions). Fetch Metadata (`Sec-Fetch-Site`, W3C Fetch Metadata Request
 * Headers) and `Origin` (RFC 6454 §7), as the OWASP CSRF Prevention Cheat Sheet describes:
 *
 * - `Origin` present: it must be the configured public origin (AUTH_PUBLIC_BASE_URL). Without one
 *   configured, it must be the request's own origin *and* a loopback one (localhost, 127.0.0.0/8,
 *   [::1]): the `Host` header alone proves nothing (DNS rebinding makes a hostile page same-origin
 *   with any Host it likes).
 * - `Sec-Fetch-Site` present: only `same-origin` or `none` (typed address, bookmark) pass.
 * - Neither header: not a browser (curl, grpcurl, server-side callers) and no ambient cookies to
 *   abuse: passes.
 */
import type { MiddlewareHandler } from 'hono';
import { AppError } from '../errors.ts';
import { profileMark } from '../platform/profile.ts';

const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

function isLoopbackOrigin(origin: string): boolean {
  try {
    return LOOPBACK_HOST.test(new URL(origin).hostname);
  } catch {
    return false;
  }
}

export function isSameSiteRequest(request: Request, publicOrigin: string | undefined): boolean {
  const site = request.headers.get('sec-fetch-site');
  if (site !== null && site !== 'same-origin' && site !== 'none') return false;
  const origin = request.headers.get('origin');
  if (origin === null) return true;
  if (publicOrigin !== undefined) return origin === publicOrigin;
  return origin === new URL(request.url).origin && isLoopbackOrigin(origin);
}

/** Hono middleware: a cross-site request is refused with 403 `forbidden` before the handler runs. */
export function sameSiteOnly(publicOrigin: string | undefined): MiddlewareHandler {
  return async (c, next) => {
    GUEST_PROFILE: profileMark('routing');
    if (!isSameSiteRequest(c.req.raw, publicOrigin)) throw new AppError('forbidden', 'cross-site request refused');
    GUEST_PROFILE: profileMark('same-site guard');
    await next();
  };
}
