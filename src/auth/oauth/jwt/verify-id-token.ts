/**
 * OpenID Connect ID token validation (OIDC Core §3.1.3.7) in pure JS, so it runs inside the
 * component where `crypto.subtle` RSA/ECDSA trap. jose decodes (header, payload, base64url);
 * the signature is checked by `rsa-pkcs1-verify.ts` / `ecdsa-p256.ts`.
 */
import { base64url, decodeJwt, decodeProtectedHeader, type JWTPayload } from 'jose';
import { rejectIdToken } from '../errors.ts';
import { verifyEs256 } from './ecdsa-p256.ts';
import { SUPPORTED_ID_TOKEN_ALGS, selectKey, verificationKeys, type IdTokenAlg } from './jwks.ts';
import { verifyRs256 } from './rsa-pkcs1-verify.ts';

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
}

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

const encoder = new TextEncoder();
/** Bounds the work an oversized token can cause (real ID tokens are 1–2 KiB). */
export const MAX_ID_TOKEN_LENGTH = 16 * 1024;

function decodeParts(token: string) {
  if (token.length > MAX_ID_TOKEN_LENGTH) throw rejectIdToken('malformed');
  const parts = token.split('.');
  // The signature may be empty (`alg: none`): that is refused below with its own reason.
  if (parts.length !== 3 || parts[0] === '' || parts[1] === '') throw rejectIdToken('malformed');
  try {
    return { header: decodeProtectedHeader(token), payload: decodeJwt(token), signature: base64url.decode(parts[2]!), signingInput: `${parts[0]}.${parts[1]}` };
  } catch {
    throw rejectIdToken('malformed');
  }
}

function isSupported(alg: unknown): alg is IdTokenAlg {
  return typeof alg === 'string' && (SUPPORTED_ID_TOKEN_ALGS as readonly string[]).includes(alg);
}

/** Verifies signature and claims; returns the claims or throws `OAuthError('id_token_invalid', reason)`. */
export function verifyIdToken(token: string, options: VerifyIdTokenOptions): IdTokenClaims {
  const { header, payload, signature, signingInput } = decodeParts(token);
  const alg = header.alg;
  if (typeof alg !== 'string' || alg.toLowerCase() === 'none') throw rejectIdToken('alg_none');
  if (!isSupported(alg) || !options.allowedAlgs.includes(alg)) throw rejectIdToken('alg_not_allowed');
  if (header.crit !== undefined) throw rejectIdToken('malformed');

  const key = selectKey(verificationKeys(options.jwks), alg, typeof header.kid === 'string' ? header.kid : undefined);
  if (!key) throw rejectIdToken('unknown_kid');
  const data = encoder.encode(signingInput);
  const valid = key.alg === 'RS256' ? verifyRs256(key.rsa, data, signature) : verifyEs256(key.ecPoint, data, signature);
  if (!valid) throw rejectIdToken('bad_signature');

  return checkClaims(payload, options);
}

function checkClaims(payload: JWTPayload, options: VerifyIdTokenOptions): IdTokenClaims {
  const now = Math.floor((options.now ?? Date.now()) / 1000);
  const tolerance = options.clockToleranceSec ?? 60;
  if (payload.iss !== options.issuer) throw rejectIdToken('issuer');

  const aud = payload.aud;
  const audiences = typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud : [];
  if (!audiences.includes(options.audience)) throw rejectIdToken('audience');
  // OIDC Core §3.1.3.7 (4, 5): with several audiences, azp must be us when present.
  if (payload.azp !== undefined && payload.azp !== options.audience) throw rejectIdToken('authorized_party');

  if (typeof payload.exp !== 'number' || !Number.isFinite(payload.exp)) throw rejectIdToken('expired');
  if (now - tolerance >= payload.exp) throw rejectIdToken('expired');
  if (payload.nbf !== undefined && (typeof payload.nbf !== 'number' || now + tolerance < payload.nbf)) throw rejectIdToken('not_yet_valid');
  if (typeof payload.iat !== 'number' || payload.iat > now + tolerance || payload.iat > payload.exp) throw rejectIdToken('issued_at');

  if (payload.nonce !== options.nonce) throw rejectIdToken('nonce');
  if (typeof payload.sub !== 'string' || payload.sub === '') throw rejectIdToken('subject');
  return payload as IdTokenClaims;
}
