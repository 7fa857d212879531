/**
 * JWS compact signature verification (RFC 7515 §5.2) shared by the ID token check and the
 * operator token check, in pure JS because the component's `crypto.subtle` has no RSA/ECDSA.
 * The caller pins the algorithms: `none` and HS* are never accepted, whatever the header says,
 * so a token "signed" with HMAC over a public key (RFC 8725 §3.1, alg confusion) is refused.
 */
import { base64url, decodeJwt, decodeProtectedHeader, type JWTPayload } from 'jose';
import { verifyEs256 } from './ecdsa-p256.ts';
import { SUPPORTED_ID_TOKEN_ALGS, selectKey, type IdTokenAlg, type VerificationKey } from './jwks.ts';
import { verifyRs256 } from './rsa-pkcs1-verify.ts';

/** Bounds the work an oversized token can cause (real tokens are 1–2 KiB). */
const MAX_JWS_LENGTH = 16 * 1024;

export type JwsRejection = 'malformed' | 'alg_none' | 'alg_not_allowed' | 'unknown_kid' | 'bad_signature';
export type JwsResult = { ok: true; payload: JWTPayload } | { ok: false; reason: JwsRejection };

const encoder = new TextEncoder();

function decodeParts(token: string) {
  if (token.length > MAX_JWS_LENGTH) return undefined;
  const parts = token.split('.');
  // The signature may be empty (`alg: none`): that is refused below with its own reason.
  if (parts.length !== 3 || parts[0] === '' || parts[1] === '') return undefined;
  try {
    return { header: decodeProtectedHeader(token), payload: decodeJwt(token), signature: base64url.decode(parts[2]!), signingInput: `${parts[0]}.${parts[1]}` };
  } catch {
    return undefined;
  }
}

function isSupported(alg: unknown): alg is IdTokenAlg {
  return typeof alg === 'string' && (SUPPORTED_ID_TOKEN_ALGS as readonly string[]).includes(alg);
}

/** Checks the signature of `token` with one of `keys`, for an algorithm in `allowedAlgs` only. */
export function verifyJwsSignature(token: string, keys: readonly VerificationKey[], allowedAlgs: readonly IdTokenAlg[]): JwsResult {
  const parts = decodeParts(token);
  if (!parts) return { ok: false, reason: 'malformed' };
  const { header, payload, signature, signingInput } = parts;
  const alg = header.alg;
  if (typeof alg !== 'string' || alg.toLowerCase() === 'none') return { ok: false, reason: 'alg_none' };
  if (!isSupported(alg) || !allowedAlgs.includes(alg)) return { ok: false, reason: 'alg_not_allowed' };
  // RFC 7515 §4.1.11: we understand no critical extension.
  if (header.crit !== undefined) return { ok: false, reason: 'malformed' };

  const key = selectKey(keys, alg, typeof header.kid === 'string' ? header.kid : undefined);
  if (!key) return { ok: false, reason: 'unknown_kid' };
  const data = encoder.encode(signingInput);
  const valid = key.alg === 'RS256' ? verifyRs256(key.rsa, data, signature) : verifyEs256(key.ecPoint, data, signature);
  return valid ? { ok: true, payload } : { ok: false, reason: 'bad_signature' };
}
