/** Test helpers (unit tests only): key pairs and signed tokens made with jose on Node's WebCrypto. */
import { base64url, exportJWK, exportPKCS8, generateKeyPair, SignJWT, type JWK, type JWTPayload } from 'jose';

export interface TestSigner {
  alg: 'RS256' | 'ES256';
  kid: string;
  publicJwk: JWK;
  privateKey: CryptoKey;
  pkcs8: string;
}

export async function testSigner(alg: 'RS256' | 'ES256', kid: string): Promise<TestSigner> {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' };
  return { alg, kid, publicJwk, privateKey, pkcs8: await exportPKCS8(privateKey) };
}

export async function signToken(signer: TestSigner, claims: JWTPayload, header: Record<string, unknown> = {}): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: signer.alg, kid: signer.kid, ...header }).sign(signer.privateKey);
}

/** A provider_c client-secret JWT shape with the given `exp` (seconds; only decoded, never verified, by the config check). */
export function clientSecretJwt(exp: number | undefined): string {
  const part = (value: object) => base64url.encode(JSON.stringify(value));
  return `${part({ alg: 'ES256', kid: 'KEY123' })}.${part({ iss: 'TEAM123', aud: 'https://provider-c.example', sub: 'com.example.web', ...(exp === undefined ? {} : { exp: Math.floor(exp) }) })}.c2lnbmF0dXJl`;
}
