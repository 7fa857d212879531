/**
 * Verification of operator bearer tokens: JWTs signed with ES256 by an issuer whose public key(s)
 * are configured (`AUTH_SYSTEM_TOKEN_JWKS`); the service never holds the private half. The
 * algorithm is pinned to ES256 (RFC 8725 §3.1: no `none`, no HS256 made with the public key),
 * the signature is checked in pure JS (../oauth/jwt/verify-jws.ts), then `iss`, `aud`, `exp`,
 * `iat` (bounded age), `nbf` and `sub` (RFC 7519 §4.1). Then the authorization: a multi-factor
 * authentication in `amr`/`acr` (./authentication-strength.ts) and `roles` with `system_admin`.
 * 401 (`unauthorized`) for a missing or invalid token, 403 (`forbidden`) for a valid one that
 * lacks the claims. Messages are fixed: they never say which check failed; the log gets a reason.
 */
import type { JWTPayload } from 'jose';
import { AppError } from '../../errors.ts';
import { verifyJwsSignature } from '../oauth/jwt/verify-jws.ts';
import { isMultiFactor } from './authentication-strength.ts';
import type { AuthDeps } from './deps.ts';

export const SYSTEM_ADMIN_ROLE = 'system_admin';
/** Tokens are meant to be short-lived: anything issued longer ago than this is refused. */
const MAX_TOKEN_LIFETIME_SECONDS = 24 * 3600;
/** Clock skew allowed between the issuer and this service. */
const CLOCK_TOLERANCE_SECONDS = 30;
const UNAUTHORIZED = 'a valid bearer token is required';

export interface SystemPrincipal {
  subject: string;
}

export function bearerToken(authorization: string | undefined | null): string | undefined {
  const match = /^Bearer ([A-Za-z0-9_.-]+)$/.exec(authorization?.trim() ?? '');
  return match?.[1];
}

/** Why a token was refused (for the cause, never for the response body). */
function claimProblem(payload: JWTPayload, settings: { issuer: string; audience: string }, nowMs: number): string | undefined {
  const now = Math.floor(nowMs / 1000);
  if (payload.iss !== settings.issuer) return 'issuer';
  const audiences = typeof payload.aud === 'string' ? [payload.aud] : Array.isArray(payload.aud) ? payload.aud : [];
  if (!audiences.includes(settings.audience)) return 'audience';
  if (typeof payload.exp !== 'number' || now - CLOCK_TOLERANCE_SECONDS >= payload.exp) return 'expired';
  if (typeof payload.iat !== 'number' || payload.iat > now + CLOCK_TOLERANCE_SECONDS || now - payload.iat > MAX_TOKEN_LIFETIME_SECONDS) return 'issued_at';
  if (payload.nbf !== undefined && (typeof payload.nbf !== 'number' || now + CLOCK_TOLERANCE_SECONDS < payload.nbf)) return 'not_yet_valid';
  if (typeof payload.sub !== 'string' || payload.sub === '') return 'subject';
  return undefined;
}

export function authorizeSystemAdmin(deps: AuthDeps, token: string | undefined): Promise<SystemPrincipal> {
  return Promise.resolve().then(() => {
    const settings = deps.config.systemToken;
    if (!token || !settings) throw new AppError('unauthorized', UNAUTHORIZED);
    const verified = verifyJwsSignature(token, settings.keys, ['ES256']);
    if (!verified.ok) throw new AppError('unauthorized', UNAUTHORIZED, { cause: new Error(`operator token: ${verified.reason}`) });
    const problem = claimProblem(verified.payload, settings, deps.platform.now());
    if (problem) throw new AppError('unauthorized', UNAUTHORIZED, { cause: new Error(`operator token: ${problem}`) });
    const { payload } = verified;
    const roles = Array.isArray(payload['roles']) ? payload['roles'] : [];
    if (!isMultiFactor({ amr: payload['amr'], acr: payload['acr'] }) || !roles.includes(SYSTEM_ADMIN_ROLE)) {
      throw new AppError('forbidden', 'an AAL2 system administrator token is required');
    }
    return { subject: String(payload.sub) };
  });
}
