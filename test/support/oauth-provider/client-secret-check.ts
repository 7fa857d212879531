/** How the local provider authenticates clients at its token endpoint. */
import { importJWK, jwtVerify, type JWK } from 'jose';

export type ClientCheck =
  | { kind: 'secret'; secret: string }
  /** provider_c: the client secret is an ES256 JWT signed with the registered key */
  | { kind: 'signed_jwt'; teamId: string; keyId: string; publicJwk: JWK };

/** True when `presented` authenticates client `clientId`. */
/** `audience` is the provider's issuer, which a client-secret JWT must name as `aud`. */
export async function clientAuthenticates(check: ClientCheck, clientId: string, presented: string | null, audience: string): Promise<boolean> {
  if (!presented) return false;
  if (check.kind === 'secret') return presented === check.secret;
  try {
    const key = await importJWK(check.publicJwk, 'ES256');
    const { protectedHeader, payload } = await jwtVerify(presented, key, {
      algorithms: ['ES256'],
      issuer: check.teamId,
      subject: clientId,
      audience,
      requiredClaims: ['iat', 'exp'],
    });
    return protectedHeader.kid === check.keyId && payload.exp! - payload.iat! <= 15_777_000;
  } catch {
    return false;
  }
}
