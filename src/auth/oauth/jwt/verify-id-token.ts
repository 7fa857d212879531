/**
 * OpenID Connect ID token validation (OIDC Core §3.1.3.7) in pure JS, so it runs inside the
 * component where `crypto.subtle` RSA/ECDSA trap. The signature is checked by `verify-jws.ts`.
 */
import type { JWTPayload } from 'jose';
import { rejectIdToken } from '../errors.ts';
import { verificationKeys, type IdTokenAlg } from './jwks.ts';
import { verifyJwsSignature } from './verify-jws.ts';

export interface VerifyIdTokenOptions {
  /** The provider's JWKS document (`{ keys: [...] }`). */
  jwks: unknown;
  /** Expected `iss`, exactly. */
  issuer: string;
  /** Expected audience: our client id (`aud` may be a string or an array). */
  audience: string;
  /** The nonce sent in the authorization request; the token must carry it. */
  nonce: string;
  /** Algorithms accepted from this provider (`none` and HS* are never accepted). */
  allowedAlgs: readonly IdTokenAlg[];
  /** Current time in milliseconds since the epoch (default `Date.now()`). */
  now?: number;
  /** Allowed clock skew for exp/nbf/iat, seconds (default 60). */
  clockToleranceSec?: number;
  /**
   * Oldest acceptable `iat`, seconds before now (default 300). The token comes from a token
   * exchange made a moment ago, so an old one is a replay (OIDC Core §3.1.3.7 step 10).
   */
  maxAgeSec?: number;
}

/** Default bound on the age of `iat`. */
const ID_TOKEN_MAX_AGE_SEC = 300;

export interface IdTokenClaims extends JWTPayload {
  iss: string;
  sub: string;
  exp: number;
  iat: number;
  email?: unknown;
  email_verified?: unknown;
  name?: unknown;
  nonce?: unknown;
}

/** Verifies signature and claims; returns the claims or throws `OAuthError('id_token_invalid', reason)`. */
export function verifyIdToken(token: string, options: VerifyIdTokenOptions): IdTokenClaims {
  const verified = verifyJwsSignature(token, verificationKeys(options.jwks), options.allowedAlgs);
  if (!verified.ok) throw rejectIdToken(verified.reason);
  return checkClaims(verified.payload, options);
}

function checkClaims(payload: JWTPayload, options: VerifyIdTokenOptions): IdTokenClaims {
  const now = Math.floor((options.now ?? Date.now()) / 1000);
  const tolerance = options.clockToleranceSec ?? 60;
  if (payload.iss !== options.issuer) throw rejectIdToken('issuer');

  // OIDC Core §3.1.3.7 step 3: our client id must be an audience, and we trust no other, so every
  // listed audience must be our client id (an extra audience is refused whatever azp says).
  const aud = payload.aud;
  const audiences = typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud : [];
  if (audiences.length === 0 || audiences.some((a) => a !== options.audience)) throw rejectIdToken('audience');
  // Steps 4 and 5: azp, when present, must be our client id.
  if (payload.azp !== undefined && payload.azp !== options.audience) throw rejectIdToken('authorized_party');

  if (typeof payload.exp !== 'number' || !Number.isFinite(payload.exp)) throw rejectIdToken('expired');
  if (now - tolerance >= payload.exp) throw rejectIdToken('expired');
  if (payload.nbf !== undefined && (typeof payload.nbf !== 'number' || now + tolerance < payload.nbf)) throw rejectIdToken('not_yet_valid');
  const maxAge = options.maxAgeSec ?? ID_TOKEN_MAX_AGE_SEC;
  if (typeof payload.iat !== 'number' || payload.iat > now + tolerance || payload.iat > payload.exp || now - tolerance - maxAge > payload.iat) throw rejectIdToken('issued_at');

  if (payload.nonce !== options.nonce) throw rejectIdToken('nonce');
  if (typeof payload.sub !== 'string' || payload.sub === '') throw rejectIdToken('subject');
  return payload as IdTokenClaims;
}
