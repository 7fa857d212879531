/**
 * Password policy (NIST SP 800-63B §3.1.1.2): a minimum length, a generous maximum, every
 * character allowed, no composition rules. Length is counted in code points after NFKC (where the runtime has it), which is
 * what the host's KDF hashes.
 */
import { AppError } from '../../errors.ts';
import { nfkc } from './unicode.ts';

/** Bounds the work a single request can ask of the KDF. */
export const PASSWORD_MAX_LENGTH = 1024;

export function checkPassword(password: string, minLength: number): void {
  const length = [...nfkc(password)].length;
  if (length < minLength) throw new AppError('validation', `password must be at least ${minLength} characters`);
  if (length > PASSWORD_MAX_LENGTH) throw new AppError('validation', `password must be at most ${PASSWORD_MAX_LENGTH} characters`);
}
