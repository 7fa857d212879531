/**
 * Host side of the WIT interface `app:platform/signatures` (bench/oauth-signatures/signatures.wit) with node:crypto:
 * the alternative the benchmark compares with pure-JS signatures in the guest. Keys are cached
 * per JWK / PEM text so a call costs the crossing plus the operation.
 */
import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

/** Keys kept per kind: the benchmark uses one of each algorithm. */
const MAX_KEYS = 8;
const publicKeys = new Map<string, KeyObject>();
const privateKeys = new Map<string, KeyObject>();

/** The cached key for `text`, parsed on first use; the oldest goes when the cache is full. */
function cached(keys: Map<string, KeyObject>, text: string, parse: (text: string) => KeyObject): KeyObject {
  let key = keys.get(text);
  if (!key) {
    key = parse(text);
    if (keys.size >= MAX_KEYS) keys.delete(keys.keys().next().value!);
    keys.set(text, key);
  }
  return key;
}

const publicKey = (jwkText: string) => cached(publicKeys, jwkText, (text) => createPublicKey({ key: JSON.parse(text) as import('node:crypto').JsonWebKey, format: 'jwk' }));

export const hostSignaturesImports = {
  'app:platform/signatures': {
    verify(alg: 'rs256' | 'es256', jwkText: string, data: Uint8Array, signature: Uint8Array): boolean {
      const key = publicKey(jwkText);
      return alg === 'es256' ? verify('sha256', data, { key, dsaEncoding: 'ieee-p1363' }, signature) : verify('sha256', data, key, signature);
    },
    signEs256(pem: string, data: Uint8Array): Uint8Array {
      const key = cached(privateKeys, pem, (text) => createPrivateKey(text));
      return new Uint8Array(sign('sha256', data, { key, dsaEncoding: 'ieee-p1363' }));
    },
  },
};
