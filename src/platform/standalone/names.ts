/** File names of the on-disk format (see docs/wasmtime.md, "The standalone variant and its file store"). */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Numbers are zero-padded to 20 digits (u64 max) so names sort in numeric order. */
export function padded(n: bigint): string {
  return n.toString().padStart(20, '0');
}

/**
 * A filesystem-safe, case-preserving name for any id (stream ids, keys): `h` + the hex of its
 * UTF-8 when that fits a file name, else `s` + SHA-256 hex (hashing is slow in the guest's
 * interpreter, so the common short ids skip it). Hex, not the id itself: some filesystems fold case.
 */
export function hashed(id: string): string {
  const bytes = encoder.encode(id);
  return bytes.byteLength <= 100 ? `h${bytesToHex(bytes)}` : `s${bytesToHex(sha256(bytes))}`;
}

export function encodeJson(value: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(value));
}

export function decodeJson<T>(bytes: Uint8Array): T {
  return JSON.parse(decoder.decode(bytes)) as T;
}

export function decodeText(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

export function encodeText(text: string): Uint8Array {
  return encoder.encode(text);
}

/** Whether a file still holds exactly what this instance wrote. */
export function sameBytes(a: Uint8Array | undefined, b: Uint8Array): boolean {
  return a !== undefined && a.byteLength === b.byteLength && a.every((byte, i) => byte === b[i]);
}
