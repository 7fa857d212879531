/** File names of the on-disk format (see README "Standalone file store"). */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Numbers are zero-padded to 20 digits (u64 max) so names sort in numeric order. */
export function padded(n: bigint): string {
  return n.toString().padStart(20, '0');
}

/** A fixed-length, filesystem-safe name for any id (stream ids, keys): SHA-256 of its UTF-8. */
export function hashed(id: string): string {
  return bytesToHex(sha256(encoder.encode(id)));
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
