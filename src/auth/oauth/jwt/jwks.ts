/**
 * A provider's JSON Web Key Set (RFC 7517) parsed into verification keys for the algorithms this
 * service accepts. Keys of other types, curves or uses are skipped, never an error: providers
 * publish keys for algorithms we do not use.
 */
import { base64url } from 'jose';
import * as v from 'valibot';
import { p256PublicKey } from './ecdsa-p256.ts';
import { rsaPublicKey, type RsaPublicKey } from './rsa-pkcs1-verify.ts';

/** Asymmetric JWS algorithms this service verifies. */
export const SUPPORTED_ID_TOKEN_ALGS = ['RS256', 'ES256'] as const;
export type IdTokenAlg = (typeof SUPPORTED_ID_TOKEN_ALGS)[number];

export type VerificationKey = { alg: 'RS256'; kid: string | undefined; rsa: RsaPublicKey } | { alg: 'ES256'; kid: string | undefined; ecPoint: Uint8Array };

const jwkSchema = v.looseObject({
  kty: v.string(),
  kid: v.optional(v.string()),
  use: v.optional(v.string()),
  alg: v.optional(v.string()),
  crv: v.optional(v.string()),
  n: v.optional(v.string()),
  e: v.optional(v.string()),
  x: v.optional(v.string()),
  y: v.optional(v.string()),
});

export const jwksSchema = v.object({ keys: v.array(v.unknown()) });

export type JsonWebKeySet = v.InferOutput<typeof jwksSchema>;

function decode(value: string): Uint8Array | undefined {
  try {
    return base64url.decode(value);
  } catch {
    return undefined;
  }
}

function toVerificationKey(raw: unknown): VerificationKey | undefined {
  const parsed = v.safeParse(jwkSchema, raw);
  if (!parsed.success) return undefined;
  const jwk = parsed.output;
  if (jwk.use !== undefined && jwk.use !== 'sig') return undefined;
  if (jwk.kty === 'RSA' && jwk.n && jwk.e && (jwk.alg === undefined || jwk.alg === 'RS256')) {
    const n = decode(jwk.n);
    const e = decode(jwk.e);
    const rsa = n && e ? rsaPublicKey(n, e) : undefined;
    return rsa ? { alg: 'RS256', kid: jwk.kid, rsa } : undefined;
  }
  if (jwk.kty === 'EC' && jwk.crv === 'P-256' && jwk.x && jwk.y && (jwk.alg === undefined || jwk.alg === 'ES256')) {
    const x = decode(jwk.x);
    const y = decode(jwk.y);
    const ecPoint = x && y ? p256PublicKey(x, y) : undefined;
    return ecPoint ? { alg: 'ES256', kid: jwk.kid, ecPoint } : undefined;
  }
  return undefined;
}

/** Keys read from one JWKS at most: providers publish 2–4; this bounds key-validation work. */
const MAX_JWKS_KEYS = 32;

/** Every usable key of a JWKS document (anything unparseable yields an empty list). */
export function verificationKeys(jwks: unknown): VerificationKey[] {
  const parsed = v.safeParse(jwksSchema, jwks);
  if (!parsed.success) return [];
  return parsed.output.keys
    .slice(0, MAX_JWKS_KEYS)
    .map(toVerificationKey)
    .filter((k): k is VerificationKey => k !== undefined);
}

/**
 * The key for a token header: by `kid` when the header has one; without `kid`, only when exactly
 * one key of the algorithm exists (never guess between several).
 */
export function selectKey(keys: readonly VerificationKey[], alg: IdTokenAlg, kid: string | undefined): VerificationKey | undefined {
  const candidates = keys.filter((k) => k.alg === alg);
  if (kid !== undefined) return candidates.find((k) => k.kid === kid);
  return candidates.length === 1 ? candidates[0] : undefined;
}
