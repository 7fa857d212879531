/**
 * Password policy (NIST SP 800-63B §3.1.1.2): a minimum length, a generous maximum, every
 * character allowed that both hosts normalize alike, no composition rules. Passwords are hashed in
 * their NFKC form, computed here in the guest with bundled tables (src/text/nfkc.ts) so the Node
 * host and `wasmtime serve` hash the same bytes; length is counted in its code points.
 */
import { AppError } from '../../errors.ts';
import { NFKC_UNICODE_VERSION, nfkcStrict } from '../../text/nfkc.ts';

/** Bounds the work a single request can ask of the KDF. */
export const PASSWORD_MAX_LENGTH = 1024;

/**
 * NFKC joins at most 4 code points (8 UTF-16 units) into one, so a longer input cannot be within
 * the maximum once normalized: refused before any normalizing.
 */
export const PASSWORD_MAX_INPUT_UNITS = PASSWORD_MAX_LENGTH * 8;

export const UNSUPPORTED_CHARACTER_MESSAGE = `password contains a character this service cannot accept (unassigned in Unicode ${NFKC_UNICODE_VERSION}, or one whose normalization the service cannot reproduce)`;

/** Why a new password was refused: the form page words each one (src/auth/pages/login-errors.ts). */
export type PasswordProblem = 'too_short' | 'too_long' | 'unsupported_character';

/** A refused password: still a `validation` error (the API's code), with the one reason named. */
export class PasswordRejected extends AppError {
  readonly problem: PasswordProblem;
  constructor(problem: PasswordProblem, message: string) {
    super('validation', message);
    this.problem = problem;
  }
}

/** The password's NFKC form, the text that is hashed; `validation` when it cannot be computed exactly. */
export function passwordForHashing(password: string): string {
  const normalized = nfkcStrict(password);
  if (normalized === undefined) throw new PasswordRejected('unsupported_character', UNSUPPORTED_CHARACTER_MESSAGE);
  return normalized;
}

/** Applies the policy to a new password and answers the text to hash (its NFKC form). */
export function checkPassword(password: string, minLength: number): string {
  const tooLong = () => new PasswordRejected('too_long', `password must be at most ${PASSWORD_MAX_LENGTH} characters`);
  if (password.length > PASSWORD_MAX_INPUT_UNITS) throw tooLong();
  const normalized = passwordForHashing(password);
  const length = [...normalized].length;
  if (length < minLength) throw new PasswordRejected('too_short', `password must be at least ${minLength} characters`);
  if (length > PASSWORD_MAX_LENGTH) throw tooLong();
  return normalized;
}
