/**
 * Verification of operator bearer tokens (HS256 JWTs minted by `npm run auth:token`): signature,
 * `iss`, `aud`, `exp` (required) with jose, which uses the guest's crypto.subtle HMAC. Then the
 * authorization: `aal` must be `aal2` and `roles` must include `system_admin`.
 * 401 (`unauthorized`) for a missing or invalid token, 403 (`forbidden`) for a valid one that
 * lacks the claims. Messages are fixed: they never say which check failed.
 */
import { jwtVerify } from 'jose';
import { AppError } from '../../errors.ts';
import type { AuthDeps } from './deps.ts';

export const SYSTEM_ADMIN_ROLE = 'system_admin';
/** Tokens are meant to be short-lived: anything valid for longer than this is refused. */
const MAX_TOKEN_LIFETIME_SECONDS = 24 * 3600;

export interface SystemPrincipal {
  subject: string;
}

export function bearerToken(authorization: string | undefined | null): string | undefined {
  const match = /^Bearer ([A-Za-z0-9_.-]+)$/.exec(authorization?.trim() ?? '');
  return match?.[1];
}

export async function authorizeSystemAdmin(deps: AuthDeps, token: string | undefined): Promise<SystemPrincipal> {
  const settings = deps.config.systemToken;
  if (!token || !settings) throw new AppError('unauthorized', 'a valid bearer token is required');
  let payload;
  try {
    ({ payload } = await jwtVerify(token, settings.secret, {
      algorithms: ['HS256'],
      issuer: settings.issuer,
      audience: settings.audience,
      requiredClaims: ['exp', 'iat', 'sub'],
      maxTokenAge: MAX_TOKEN_LIFETIME_SECONDS,
      currentDate: new Date(deps.platform.now()),
    }));
  } catch (error) {
    throw new AppError('unauthorized', 'a valid bearer token is required', { cause: error });
  }
  const roles = Array.isArray(payload['roles']) ? payload['roles'] : [];
  if (payload['aal'] !== 'aal2' || !roles.includes(SYSTEM_ADMIN_ROLE)) {
    throw new AppError('forbidden', 'an AAL2 system administrator token is required');
  }
  return { subject: String(payload.sub) };
}
