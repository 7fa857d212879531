/**
 * ES256 (ECDSA P-256 with SHA-256, RFC 7518 §3.4) in pure JS with @noble/curves: JWS signatures
 * are the raw 64-byte r||s form, which is noble's "compact" format.
 */
import { p256 } from './p256-curve.ts';

/** True when `signature` (64 bytes r||s) is a valid ES256 signature of `data`. */
export function verifyEs256(publicKey: Uint8Array, data: Uint8Array, signature: Uint8Array): boolean {
  if (signature.length !== 64) return false;
  try {
    // lowS: false — JWS does not require low-S; other signers (node:crypto, providers) emit high S.
    return p256().verify(signature, data, publicKey, { lowS: false, prehash: true, format: 'compact' });
  } catch {
    return false;
  }
}

/** A 64-byte r||s ES256 signature (deterministic k, RFC 6979). */
export function signEs256(secretKey: Uint8Array, data: Uint8Array): Uint8Array {
  return p256().sign(data, secretKey, { prehash: true, format: 'compact' });
}

/** Uncompressed SEC1 point 0x04||x||y, or undefined when the coordinates are not on the curve. */
export function p256PublicKey(x: Uint8Array, y: Uint8Array): Uint8Array | undefined {
  if (x.length !== 32 || y.length !== 32) return undefined;
  const point = new Uint8Array(65);
  point[0] = 0x04;
  point.set(x, 1);
  point.set(y, 33);
  return p256().utils.isValidPublicKey(point, false) ? point : undefined;
}

export function isValidP256SecretKey(secretKey: Uint8Array): boolean {
  return p256().utils.isValidSecretKey(secretKey);
}
