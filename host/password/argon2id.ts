/**
 * Argon2id password hashes as PHC strings: `$argon2id$v=19$m=<KiB>,t=<passes>,p=<lanes>$<salt>$<hash>`
 * (unpadded standard base64), with Node's `crypto.argon2` (asynchronous: libuv's thread pool,
 * never the event loop). Knows nothing of accounts: it hashes strings.
 */
import { argon2, randomBytes, timingSafeEqual } from 'node:crypto';
import { UnrecognizedHash } from './scrypt.ts';

export interface Argon2Params {
  /** memory in KiB */
  m: number;
  /** passes */
  t: number;
  /** lanes */
  p: number;
}

/**
 * OWASP's password storage cheat sheet's first choice: Argon2id with 19 MiB, 2 passes, 1 lane
 * (about 50 ms here; scrypt at OWASP's equivalent cost took about 270 ms, see docs/auth.md, "Password hashing").
 */
export const DEFAULT_ARGON2_PARAMS: Argon2Params = { m: 19_456, t: 2, p: 1 };

const SALT_BYTES = 16;
const KEY_BYTES = 32;
/** Refuse parameters from a stored string that would cost more than this (a hostile or corrupt hash). */
const LIMITS = { m: 1 << 20, t: 16, p: 16 };
const PHC = /^\$argon2id\$v=19\$m=(\d{1,7}),t=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]{16,})\$([A-Za-z0-9+/]{32,})$/;

const b64 = (bytes: Buffer): string => bytes.toString('base64').replace(/=+$/, '');

function derive(password: string, salt: Buffer, params: Argon2Params, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    argon2('argon2id', { message: password.normalize('NFKC'), nonce: salt, memory: params.m, passes: params.t, parallelism: params.p, tagLength: length }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

export function isArgon2id(encoded: string): boolean {
  return encoded.startsWith('$argon2id$');
}

export async function hashArgon2id(password: string, params: Argon2Params = DEFAULT_ARGON2_PARAMS): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, params, KEY_BYTES);
  return `$argon2id$v=19$m=${params.m},t=${params.t},p=${params.p}$${b64(salt)}$${b64(key)}`;
}

export async function verifyArgon2id(password: string, encoded: string): Promise<boolean> {
  const match = PHC.exec(encoded);
  if (!match) throw new UnrecognizedHash('not an argon2id PHC string');
  const [m, t, p] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (m < 8 * p || m > LIMITS.m || t < 1 || t > LIMITS.t || p < 1 || p > LIMITS.p) throw new UnrecognizedHash('argon2id parameters out of range');
  const salt = Buffer.from(match[4]!, 'base64');
  const expected = Buffer.from(match[5]!, 'base64');
  const actual = await derive(password, salt, { m, t, p }, expected.length);
  return timingSafeEqual(actual, expected);
}
