/** Guest side of the KDF benchmark: @noble/hashes scrypt and PBKDF2 in the component's interpreter. */
import { pbkdf2 } from '@noble/hashes/pbkdf2.js';
import { scrypt } from '@noble/hashes/scrypt.js';
import { sha256 } from '@noble/hashes/sha2.js';

const salt = new Uint8Array(16).fill(7);

export function run(algorithm: string, cost: number): number {
  const key =
    algorithm === 'scrypt'
      ? scrypt('correct horse battery staple', salt, { N: 2 ** cost, r: 8, p: 1, dkLen: 32 })
      : pbkdf2(sha256, 'correct horse battery staple', salt, { c: cost, dkLen: 32 });
  return key[0]!;
}
