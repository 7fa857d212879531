/**
 * The PasswordHasher port bound to the `app:platform/password-hashing` import, shared by both
 * worlds: the Node host supplies it under `hosted`, the compiled password component
 * (components/password-hashing/, composed in at build time) under `standalone`.
 *
 * Passwords are hashed in their NFKC form. The application hands over that form (the password
 * policy computes it with bundled tables, src/text/nfkc.ts); the Node host normalizes again with
 * its ICU, which leaves it unchanged. Under `standalone` the compiled component has no Unicode
 * tables, so the guest normalizes once more itself (`nfkcInGuest`, a no-op on the application's
 * output) and refuses what it cannot normalize exactly, rather than hash a form the Node host
 * would not reproduce (a hash from either host must verify on the other).
 */
import * as passwordHashing from 'app:platform/password-hashing@0.1.0';
import { StoreError } from '../errors.ts';
import { nfkcStrict } from '../text/nfkc.ts';
import type { PasswordHasher } from './ports.ts';
import { call } from './hosted/errors.ts';

/** Hands the password on unchanged: the implementation normalizes (the Node host). */
export const implementationNormalizes = (password: string): string => password;

/** The password's NFKC form from the bundled tables, else StoreError 'invalid' (the policy refuses such a password first). */
export function nfkcInGuest(password: string): string {
  const normalized = nfkcStrict(password);
  if (normalized === undefined) throw new StoreError('invalid', 'the password has a character the guest cannot normalize exactly');
  return normalized;
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
