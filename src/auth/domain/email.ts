/**
 * Email normalization: one account per mailbox however it is typed. Trimmed, Unicode NFKC,
 * lower-cased as a whole (RFC 5321 lets the local part be case-sensitive, but no mainstream
 * provider treats it so, and two accounts differing only by case would be a trap).
 * No provider-specific rewriting (dots, "+tags"): those are different addresses.
 */
import { AppError } from '../../errors.ts';
import { nfkc } from './unicode.ts';

/** RFC 5321 limits: 64 octets local part, 254 for the whole path. */
const MAX_LENGTH = 254;
const MAX_LOCAL = 64;
const SHAPE = /^[^\s@"<>()[\]\\,;:]+@[^\s@"<>()[\]\\,;:]+\.[^\s@"<>()[\]\\,;:.]+$/u;

export function normalizeEmail(input: string): string {
  const email = nfkc(input).trim().toLowerCase();
  const at = email.indexOf('@');
  if (email.length > MAX_LENGTH || !SHAPE.test(email) || at > MAX_LOCAL || email.includes('..')) {
    throw new AppError('validation', 'email must be a valid address');
  }
  return email;
}
