/**
 * Operator tokens for the end-to-end suites: an ES256 key pair made per suite standing in for the
 * identity provider. `env` configures the host with the public key only (AUTH_SYSTEM_TOKEN_JWKS);
 * `mint` signs a token with the defaults the service accepts (multi-factor `amr`, system_admin).
 */
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload } from 'jose';

export const OPERATOR_ISSUER = 'wasi-counter-auth';
export const OPERATOR_AUDIENCE = 'wasi-counter-auth:storage-status';

export interface OperatorIssuer {
  /** `{ AUTH_SYSTEM_TOKEN_JWKS }` with the public key */
  env: Record<string, string>;
  publicJwks: string;
  privateKey: CryptoKey;
  kid: string;
  mint(claims?: JWTPayload, options?: { expiresIn?: string | number; issuedAt?: number; header?: Record<string, unknown> }): Promise<string>;
}

export async function operatorIssuer(kid = `test-${crypto.randomUUID().slice(0, 8)}`): Promise<OperatorIssuer> {
  const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
  const publicJwks = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' }] });
  return {
    env: { AUTH_SYSTEM_TOKEN_JWKS: publicJwks },
    publicJwks,
    privateKey,
    kid,
    mint(claims = {}, options = {}) {
      return new SignJWT({ iss: OPERATOR_ISSUER, aud: OPERATOR_AUDIENCE, sub: 'operator-1', amr: ['pwd', 'otp'], roles: ['system_admin'], ...claims })
        .setProtectedHeader({ alg: 'ES256', kid, ...options.header })
        .setIssuedAt(options.issuedAt)
        .setExpirationTime(options.expiresIn ?? '5m')
        .sign(privateKey);
    },
  };
}
