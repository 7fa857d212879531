/**
 * Unguessable values for the OAuth flow: state, nonce and PKCE verifier (RFC 7636 §4.1), and the
 * hash under which a state is stored (the raw state only ever travels in the browser's URL).
 * `crypto.getRandomValues` works in the guest (it reaches wasi:random).
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { base64url } from 'jose';

const encoder = new TextEncoder();

/** 32 random bytes as base64url (43 characters, all RFC 3986 "unreserved"). */
export function randomToken(bytes = 32): string {
  return base64url.encode(crypto.getRandomValues(new Uint8Array(bytes)));
}

export const generateState = (): string => randomToken();

/** Lowercase hex SHA-256 of a string. */
export function sha256Hex(value: string): string {
  return Array.from(sha256(encoder.encode(value)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The key a state record is stored and looked up by (hex SHA-256 of the state). */
export const hashState = (state: string): string => sha256Hex(state);

/** The S256 code challenge of a verifier: BASE64URL(SHA256(ASCII(verifier))) (RFC 7636 §4.2). */
export function codeChallengeS256(verifier: string): string {
  return base64url.encode(sha256(encoder.encode(verifier)));
}

/** Constant-time string comparison (for values an attacker may probe byte by byte). */
export function timingSafeEqual(a: string, b: string): boolean {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}
