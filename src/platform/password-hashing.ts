/**
 * The PasswordHasher port bound to the `app:platform/password-hashing` import, shared by both
 * worlds: the Node host supplies it under `hosted`, the compiled password component
 * (components/password-hashing/, composed in at build time) under `standalone`.
 *
 * Passwords are hashed in their NFKC form. The Node host normalizes itself (host/password/). The
 * compiled component has no Unicode tables, and StarlingMonkey (the guest engine) is built
 * without `String.prototype.normalize`, so under `standalone` an ASCII password (its own NFKC
 * form) passes as is and any other is refused as `unavailable`, rather than hashed in a form the
 * Node host would not reproduce (a hash from either host must verify on the other).
 */
import * as passwordHashing from 'app:platform/password-hashing@0.1.0';
import { StoreError } from '../errors.ts';
import type { PasswordHasher } from './ports.ts';
import { call } from './hosted/errors.ts';

/** Hands the password on unchanged: the implementation normalizes (the Node host). */
export const implementationNormalizes = (password: string): string => password;

// biome-ignore lint/suspicious/noControlCharactersInRegex: the whole ASCII range, control characters included.
const ASCII = /^[\x00-\x7f]*$/;

/** The password's NFKC form (UAX #15) where the guest can compute it, else StoreError 'unavailable'. */
export function nfkcInGuest(password: string): string {
  if (typeof String.prototype.normalize === 'function') return password.normalize('NFKC');
  if (ASCII.test(password)) return password;
  throw new StoreError('unavailable', 'this runtime cannot normalize a non-ASCII password');
}

export function witPasswordHashing(prepare: (password: string) => string): PasswordHasher {
  return {
    hash: (password) => {
      const prepared = prepare(password);
      return call(() => passwordHashing.hash(prepared));
    },
    verify: (password, encoded) => {
      const prepared = prepare(password);
      return call(() => passwordHashing.verify(prepared, encoded));
    },
  };
}
