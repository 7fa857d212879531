/**
 * ID tokens the local provider issues, honest or deliberately broken (the misbehaviour knobs),
 * so the service's verification is tested against real signatures.
 */
import { base64url, SignJWT } from 'jose';
import type { ProviderKey } from './keys.ts';

export const MISBEHAVIOURS = ['wrong_nonce', 'wrong_aud', 'wrong_iss', 'expired', 'alg_none', 'unknown_kid', 'bad_signature'] as const;
export type Misbehaviour = (typeof MISBEHAVIOURS)[number];

export interface IdTokenInput {
  issuer: string;
  audience: string;
  subject: string;
  nonce: string;
  email: string;
  emailVerified: boolean | 'true';
  name?: string;
  key: ProviderKey;
  /** signs under this key's kid instead, for `unknown_kid` and `bad_signature` */
  strayKey: ProviderKey;
  misbehaviour?: Misbehaviour;
}

export async function issueIdToken(input: IdTokenInput): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const m = input.misbehaviour;
  const claims = {
    iss: m === 'wrong_iss' ? `${input.issuer}/evil` : input.issuer,
    aud: m === 'wrong_aud' ? 'someone-else' : input.audience,
    sub: input.subject,
    nonce: m === 'wrong_nonce' ? 'not-the-nonce' : input.nonce,
    email: input.email,
    email_verified: input.emailVerified,
    ...(input.name ? { name: input.name } : {}),
    iat: m === 'expired' ? now - 7200 : now,
    exp: m === 'expired' ? now - 3600 : now + 600,
  };
  if (m === 'alg_none') {
    const enc = (o: object) => base64url.encode(JSON.stringify(o));
    return `${enc({ alg: 'none', typ: 'JWT' })}.${enc(claims)}.`;
  }
  // unknown_kid: a key the JWKS does not publish; bad_signature: that key under the published kid.
  const signer = m === 'unknown_kid' || m === 'bad_signature' ? input.strayKey : input.key;
  const kid = m === 'bad_signature' ? input.key.kid : signer.kid;
  return new SignJWT(claims).setProtectedHeader({ alg: signer.alg, kid, typ: 'JWT' }).sign(signer.privateKey);
}
