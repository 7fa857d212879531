/**
 * The P-256 ECDSA instance, created on first use rather than at import. @noble/curves probes the
 * random generator while building a curve (nist.js does it at import); inside a component the
 * import runs during Wizer pre-initialization, where no WASI call is allowed, and the build fails
 * ("cannot call arbitrary imported functions during Wizer initialization"). Parameters: FIPS 186-4
 * D.1.2.3 / SEC 2 secp256r1 (the same values as @noble/curves/nist.js).
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { ecdsa, weierstrass, type ECDSA } from '@noble/curves/abstract/weierstrass.js';

const P256 = {
  p: BigInt('0xffffffff00000001000000000000000000000000ffffffffffffffffffffffff'),
  n: BigInt('0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551'),
  h: BigInt(1),
  a: BigInt('0xffffffff00000001000000000000000000000000fffffffffffffffffffffffc'),
  b: BigInt('0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b'),
  Gx: BigInt('0x6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296'),
  Gy: BigInt('0x4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5'),
};

let instance: ECDSA | undefined;

/** P-256 with SHA-256, built once per guest instance on first use. */
export function p256(): ECDSA {
  instance ??= ecdsa(weierstrass(P256), sha256);
  return instance;
}
