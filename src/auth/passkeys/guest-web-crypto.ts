/**
 * The WebCrypto that @simplewebauthn/server uses inside the component. Its assertion (and packed
 * attestation) checks call `crypto.subtle.importKey('jwk', …)` and `crypto.subtle.verify` for
 * ECDSA, RSASSA-PKCS1-v1_5 and Ed25519, which trap inside componentize-js 0.23 components (the
 * same gap the OAuth ID-token check works around, docs/auth.md "Signatures inside the
 * component"). The guest bundle (scripts/guest-bundle.ts) puts this module in place of the
 * library's `getWebCrypto.js`, so the library's own checks all run and only the primitives
 * change: signatures in pure JS (the project's ES256 and RS256 verifiers, @noble/curves for
 * Ed25519), digests and random values from the guest's own `crypto`, which work.
 *
 * Same exports as the module it replaces (getWebCrypto, MissingWebCrypto, _getWebCryptoInternals).
 */
import { base64url } from 'jose';
import { p256PublicKey, verifyEs256 } from '../oauth/jwt/ecdsa-p256.ts';
import { rsaPublicKey, verifyRs256 } from '../oauth/jwt/rsa-pkcs1-verify.ts';

/** A public key as importKey returns it: the JWK and the algorithm it was imported for. */
interface GuestKey {
  type: 'public';
  algorithm: { name: string; namedCurve?: string; hash?: { name: string } };
  jwk: JsonWebKey;
}

class UnsupportedAlgorithm extends Error {
  constructor(what: string) {
    super(`unsupported in the component: ${what}`);
    this.name = 'NotSupportedError';
  }
}

const bytes = (data: BufferSource): Uint8Array =>
  data instanceof Uint8Array ? data : ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : new Uint8Array(data);
const field = (value: string | undefined): Uint8Array => base64url.decode(value ?? '');

async function verifyWith(key: GuestKey, signature: Uint8Array, data: Uint8Array): Promise<boolean> {
  const { algorithm, jwk } = key;
  if (algorithm.name === 'ECDSA' && jwk.crv === 'P-256' && algorithm.hash?.name === 'SHA-256') {
    const point = p256PublicKey(field(jwk.x), field(jwk.y));
    return point !== undefined && verifyEs256(point, data, signature);
  }
  if (algorithm.name === 'RSASSA-PKCS1-v1_5' && algorithm.hash?.name === 'SHA-256') {
    const rsa = rsaPublicKey(field(jwk.n), field(jwk.e));
    return rsa !== undefined && verifyRs256(rsa, data, signature);
  }
  if (algorithm.name === 'Ed25519') {
    // Imported on first use: @noble/curves probes the random generator while building a curve,
    // which is not allowed during the component's pre-initialization (see ../oauth/jwt/p256-curve.ts).
    const { ed25519 } = await import('@noble/curves/ed25519.js');
    try {
      return ed25519.verify(signature, data, field(jwk.x));
    } catch {
      return false;
    }
  }
  throw new UnsupportedAlgorithm(`${algorithm.name} ${jwk.crv ?? ''} ${algorithm.hash?.name ?? ''}`.trim());
}

const subtle = {
  digest: (algorithm: AlgorithmIdentifier, data: BufferSource) => globalThis.crypto.subtle.digest(algorithm, data),
  async importKey(format: string, keyData: JsonWebKey, algorithm: GuestKey['algorithm']): Promise<GuestKey> {
    if (format !== 'jwk') throw new UnsupportedAlgorithm(`key format ${format}`);
    return { type: 'public', algorithm, jwk: keyData };
  },
  verify(algorithm: GuestKey['algorithm'], key: GuestKey, signature: BufferSource, data: BufferSource): Promise<boolean> {
    // The key's import algorithm carries the hash for RSA; ECDSA names it at verify time.
    const hash = algorithm.hash ?? key.algorithm.hash;
    return verifyWith({ ...key, algorithm: { ...key.algorithm, ...(hash ? { hash } : {}) } }, bytes(signature), bytes(data));
  },
};

const guestCrypto = {
  getRandomValues: <T extends ArrayBufferView | null>(array: T): T => globalThis.crypto.getRandomValues(array as never) as T,
  randomUUID: () => globalThis.crypto.randomUUID(),
  subtle,
};

export function getWebCrypto(): Promise<typeof guestCrypto> {
  return Promise.resolve(guestCrypto);
}

export class MissingWebCrypto extends Error {
  constructor() {
    super('An instance of the Crypto API could not be located');
    this.name = 'MissingWebCrypto';
  }
}

/** The replaced module's test hooks; nothing here reads them. */
export const _getWebCryptoInternals = {
  stubThisGlobalThisCrypto: () => guestCrypto,
  setCachedCrypto: (_crypto: unknown) => {},
};
