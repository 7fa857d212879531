/**
 * scrypt password hashes as PHC-style strings: `$scrypt$ln=<log2 N>,r=<r>,p=<p>$<salt>$<hash>`
 * (unpadded standard base64). Runs in libuv's thread pool (`crypto.scrypt` is asynchronous), so
 * hashing never blocks the event loop. Knows nothing of accounts: it hashes strings.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

export interface ScryptParams {
  /** log2 of the CPU/memory cost N */
  ln: number;
  r: number;
  p: number;
}

/**
 * OWASP's password storage cheat sheet lists N=2^15, r=8, p=3 as equivalent to its minimum
 * (N=2^17, r=8, p=1) with a quarter of the memory (32 MiB per hash). Timings: docs/auth.md, "Password hashing".
 */
export const DEFAULT_SCRYPT_PARAMS: ScryptParams = { ln: 15, r: 8, p: 3 };

const SALT_BYTES = 16;
const KEY_BYTES = 32;
/** Refuse parameters from a stored string that would cost more than this (a hostile or corrupt hash). */
const MAX_LN = 20;
const PHC = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]{16,})\$([A-Za-z0-9+/]{32,})$/;

const b64 = (bytes: Buffer): string => bytes.toString('base64').replace(/=+$/, '');

function derive(password: string, salt: Buffer, params: ScryptParams, length: number): Promise<Buffer> {
  const options: ScryptOptions = { N: 2 ** params.ln, r: params.r, p: params.p, maxmem: 128 * 2 ** params.ln * params.r * (params.p + 1) + 1024 * 1024 };
  return new Promise((resolve, reject) => scrypt(password.normalize('NFKC'), salt, length, options, (error, key) => (error ? reject(error) : resolve(key))));
}

export async function hashPassword(password: string, params: ScryptParams = DEFAULT_SCRYPT_PARAMS): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, params, KEY_BYTES);
  return `$scrypt$ln=${params.ln},r=${params.r},p=${params.p}$${b64(salt)}$${b64(key)}`;
}

export class UnrecognizedHash extends Error {
  override readonly name = 'UnrecognizedHash';
}

export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  const match = PHC.exec(encoded);
  if (!match) throw new UnrecognizedHash('not a scrypt PHC string');
  const [ln, r, p] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (ln < 1 || ln > MAX_LN || r < 1 || p < 1) throw new UnrecognizedHash('scrypt parameters out of range');
  const salt = Buffer.from(match[4]!, 'base64');
  const expected = Buffer.from(match[5]!, 'base64');
  const actual = await derive(password, salt, { ln, r, p }, expected.length);
  return timingSafeEqual(actual, expected);
}
