/** Signing keys of the local test provider: RS256 for provider_a, ES256 for provider_c, and strays. */
import { exportJWK, generateKeyPair, type CryptoKey, type JWK } from 'jose';

export interface ProviderKey {
  alg: 'RS256' | 'ES256';
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

export async function providerKey(alg: 'RS256' | 'ES256', kid: string): Promise<ProviderKey> {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  return { alg, kid, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
}
