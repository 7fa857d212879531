/**
 * Cross-site request protection for the mutating auth routes (register, login, logout, session
 * revocation), on top of the cookie's SameSite=Lax: the shared check of src/http/same-site.ts
 * against AUTH_PUBLIC_BASE_URL's origin. Refusals are 403 `forbidden`.
 */
import type { MiddlewareHandler } from 'hono';
import { sameSiteOnly } from '../../http/same-site.ts';
import type { AuthConfig } from '../config.ts';

export function originCheck(config: AuthConfig): MiddlewareHandler {
  return sameSiteOnly(config.publicOrigin);
}
