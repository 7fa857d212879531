/**
 * Host side of the WIT interface `app:platform/signatures` (bench/oauth-signatures/signatures.wit) with node:crypto:
 * the alternative the benchmark compares with pure-JS signatures in the guest. Keys are cached
 * per JWK / PEM text so a call costs the crossing plus the operation.
 */
import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

const publicKeys = new Map<string, KeyObject>();
const privateKeys = new Map<string, KeyObject>();

function publicKey(jwkText: string): KeyObject {
  let key = publicKeys.get(jwkText);
  if (!key) {
    key = createPublicKey({ key: JSON.parse(jwkText) as import('node:crypto').JsonWebKey, format: 'jwk' });
    publicKeys.set(jwkText, key);
  }
  return key;
}

export const hostSignaturesImports = {
  'app:platform/signatures': {
    verify(alg: 'rs256' | 'es256', jwkText: string, data: Uint8Array, signature: Uint8Array): boolean {
      const key = publicKey(jwkText);
      return alg === 'es256' ? verify('sha256', data, { key, dsaEncoding: 'ieee-p1363' }, signature) : verify('sha256', data, key, signature);
    },
    signEs256(pem: string, data: Uint8Array): Uint8Array {
      let key = privateKeys.get(pem);
      if (!key) {
        key = createPrivateKey(pem);
        privateKeys.set(pem, key);
      }
      return new Uint8Array(sign('sha256', data, { key, dsaEncoding: 'ieee-p1363' }));
    },
  },
};
