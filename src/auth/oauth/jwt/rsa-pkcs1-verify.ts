/**
 * RSASSA-PKCS1-v1_5 signature verification (RFC 8017 §8.2.2) with SHA-256, in pure JS with
 * BigInt modular exponentiation. Needed because `crypto.subtle` RSA traps inside componentize-js
 * 0.23 components. Verification only handles public data, so constant time is not a concern.
 */
import { sha256 } from '@noble/hashes/sha2.js';

/** DER prefix of DigestInfo { sha256, NULL } (RFC 8017 §9.2 note 1). */
const SHA256_DIGEST_INFO = Uint8Array.from([0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20]);

const MIN_RSA_MODULUS_BITS = 2048;

export interface RsaPublicKey {
  n: bigint;
  e: bigint;
  /** modulus length in bytes */
  k: number;
}

function bytesToBigInt(bytes: Uint8Array): bigint {
  let hex = '';
  for (const b of bytes) hex += b.toString(16).padStart(2, '0');
  return hex === '' ? 0n : BigInt(`0x${hex}`);
}

function bigIntToBytes(value: bigint, length: number): Uint8Array | undefined {
  const hex = value.toString(16);
  if (hex.length > length * 2) return undefined;
  const padded = hex.padStart(length * 2, '0');
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) out[i] = Number.parseInt(padded.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** base^exponent mod modulus by square-and-multiply (e is 65537 in practice: 17 squarings). */
function modPow(base: bigint, exponent: bigint, modulus: bigint): bigint {
  let result = 1n;
  let b = base % modulus;
  let e = exponent;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % modulus;
    b = (b * b) % modulus;
    e >>= 1n;
  }
  return result;
}

/** A public key from its big-endian modulus and exponent; undefined when too small or malformed. */
export function rsaPublicKey(modulus: Uint8Array, exponent: Uint8Array): RsaPublicKey | undefined {
  const n = bytesToBigInt(modulus);
  const e = bytesToBigInt(exponent);
  const bits = n.toString(2).length;
  if (bits < MIN_RSA_MODULUS_BITS || e < 3n || (e & 1n) === 0n) return undefined;
  return { n, e, k: Math.ceil(bits / 8) };
}

/** True when `signature` is a valid RS256 signature of `data` under `key`. */
export function verifyRs256(key: RsaPublicKey, data: Uint8Array, signature: Uint8Array): boolean {
  if (signature.length !== key.k) return false;
  const s = bytesToBigInt(signature);
  if (s >= key.n) return false;
  const encoded = bigIntToBytes(modPow(s, key.e, key.n), key.k);
  if (!encoded) return false;
  const expected = emsaPkcs1Sha256(data, key.k);
  if (!expected) return false;
  let diff = 0;
  for (let i = 0; i < expected.length; i++) diff |= expected[i]! ^ encoded[i]!;
  return diff === 0;
}

/** EM = 0x00 || 0x01 || PS (0xff…) || 0x00 || DigestInfo || H(data). */
function emsaPkcs1Sha256(data: Uint8Array, k: number): Uint8Array | undefined {
  const tLen = SHA256_DIGEST_INFO.length + 32;
  if (k < tLen + 11) return undefined;
  const em = new Uint8Array(k);
  em[1] = 0x01;
  em.fill(0xff, 2, k - tLen - 1);
  em.set(SHA256_DIGEST_INFO, k - tLen);
  em.set(sha256(data), k - 32);
  return em;
}
