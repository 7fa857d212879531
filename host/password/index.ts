/**
 * The host's password hashing: new hashes are Argon2id; stored scrypt hashes (the earlier
 * default) still verify, each with the parameters written in its own PHC string.
 */
import { hashArgon2id, isArgon2id, verifyArgon2id } from './argon2id.ts';
import { verifyPassword as verifyScrypt } from './scrypt.ts';

export { UnrecognizedHash } from './scrypt.ts';

export function hashPassword(password: string): Promise<string> {
  return hashArgon2id(password);
}

export function verifyPassword(password: string, encoded: string): Promise<boolean> {
  return isArgon2id(encoded) ? verifyArgon2id(password, encoded) : verifyScrypt(password, encoded);
}
