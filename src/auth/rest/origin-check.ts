/**
 * Cross-site request protection for the mutating auth routes (register, login, logout), on top
 * of the cookie's SameSite=Lax: a browser's `Origin` must be this service's own origin (or
 * AUTH_PUBLIC_BASE_URL's); without `Origin`, a `Sec-Fetch-Site` other than same-origin/none is
 * refused. Clients that send neither (curl, server-side callers) carry no ambient browser
 * cookies to abuse, so they pass. Refusals are 403 `forbidden`.
 */
import type { MiddlewareHandler } from 'hono';
import { AppError } from '../../errors.ts';
import type { AuthConfig } from '../config.ts';

export function isSameSiteRequest(request: Request, config: AuthConfig): boolean {
  const origin = request.headers.get('origin');
  if (origin !== null) return origin === new URL(request.url).origin || origin === config.publicOrigin;
  const site = request.headers.get('sec-fetch-site');
  return site === null || site === 'same-origin' || site === 'none';
}

export function originCheck(config: AuthConfig): MiddlewareHandler {
  return async (c, next) => {
    if (!isSameSiteRequest(c.req.raw, config)) throw new AppError('forbidden', 'cross-site request refused');
    await next();
  };
}
