/**
 * The operator token issuer's public keys, from `AUTH_SYSTEM_TOKEN_JWKS`: a JWK Set (RFC 7517 §5)
 * or one JWK, as JSON. Only ES256 keys (EC P-256) are kept: the service verifies operator tokens
 * with a key whose private half it never holds, so a key carrying a private part (`d`) is a
 * configuration error rather than something to use quietly.
 */
import * as v from 'valibot';
import { verificationKeys, type VerificationKey } from './oauth/jwt/jwks.ts';

export type SystemTokenKeysResult = { keys: VerificationKey[] } | { problem: string };

const jwkList = v.union([
  v.object({ keys: v.array(v.looseObject({})) }),
  v.pipe(
    v.looseObject({ kty: v.string() }),
    v.transform((jwk) => ({ keys: [jwk] })),
  ),
]);

export function parseSystemTokenKeys(text: string): SystemTokenKeysResult {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { problem: 'not JSON' };
  }
  const parsed = v.safeParse(jwkList, json);
  if (!parsed.success) return { problem: 'neither a JWK nor a JWK Set' };
  if (parsed.output.keys.some((jwk) => 'd' in jwk || 'k' in jwk)) return { problem: 'holds a private or symmetric key; give the public key only' };
  const keys = verificationKeys(parsed.output).filter((key) => key.alg === 'ES256');
  if (keys.length === 0) return { problem: 'holds no usable ES256 (EC P-256, use "sig") public key' };
  return { keys };
}
