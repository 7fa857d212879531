/**
 * In-memory PasswordHasher for unit tests: real scrypt (@noble/hashes) in the host's string
 * format, at a toy cost so tests stay fast. Counts calls so tests can check a hash ran.
 */
import { scrypt } from '@noble/hashes/scrypt.js';
import { StoreError } from '../../errors.ts';
import type { PasswordHasher } from '../ports.ts';

const LN = 4;
const PHC = /^\$scrypt\$ln=(\d+),r=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

const b64 = (bytes: Uint8Array): string => btoa(String.fromCharCode(...bytes)).replace(/=+$/, '');
const unb64 = (text: string): Uint8Array => Uint8Array.from(atob(text), (ch) => ch.charCodeAt(0));

export class MemoryPasswordHasher implements PasswordHasher {
  calls = 0;

  hash(password: string): string {
    this.calls++;
    const salt = crypto.getRandomValues(new Uint8Array(16));
    const key = scrypt(password.normalize('NFKC'), salt, { N: 2 ** LN, r: 8, p: 1, dkLen: 32 });
    return `$scrypt$ln=${LN},r=8,p=1$${b64(salt)}$${b64(key)}`;
  }

  verify(password: string, encoded: string): boolean {
    this.calls++;
    const match = PHC.exec(encoded);
    if (!match) throw new StoreError('invalid', 'not a scrypt PHC string');
    const expected = unb64(match[5]!);
    const actual = scrypt(password.normalize('NFKC'), unb64(match[4]!), { N: 2 ** Number(match[1]), r: Number(match[2]), p: Number(match[3]), dkLen: expected.length });
    return actual.length === expected.length && actual.every((byte, i) => byte === expected[i]);
  }
}
