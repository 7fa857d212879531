/**
 * Where a failed form post's error is shown on /login and in which words: next to the field it
 * concerns, or at the top of its form when it concerns neither. The codes are the error
 * envelope's (src/errors.ts); the words never say whether an account exists (registration
 * answers a taken email like a free one, docs/security.md "account enumeration").
 */
import { normalizeEmail } from '../domain/email.ts';
import { PASSWORD_MAX_LENGTH, type PasswordProblem } from '../domain/password-policy.ts';
import { tryAgainWords } from '../../text/wait-words.ts';

export type LoginForm = 'login' | 'register';
export type ErrorPlace = 'email' | 'password' | 'form';

export interface PlacedError {
  form: LoginForm;
  place: ErrorPlace;
  text: string;
  code: string;
}

/** Errors that concern one place whatever was typed. */
const FIXED: Record<string, { place: ErrorPlace; text: string }> = {
  invalid_credentials: { place: 'password', text: 'Invalid email or password.' },
  forbidden: { place: 'form', text: 'The request was refused. Reload the page and try again.' },
  account_disabled: { place: 'form', text: 'This account is disabled. Ask the service’s operators to enable it.' },
  store: { place: 'form', text: 'The service is unavailable. Try again later.' },
};

function isValidEmail(email: string | undefined): boolean {
  if (email === undefined) return false;
  try {
    normalizeEmail(email);
    return true;
  } catch {
    return false;
  }
}

/** One message per reason a new password is refused (NIST SP 800-63B: say why, no composition rules). */
const PASSWORD_PROBLEMS: Record<PasswordProblem, (minLength: number) => string> = {
  too_short: (minLength) => `Use at least ${minLength} characters.`,
  too_long: () => `Use at most ${PASSWORD_MAX_LENGTH} characters.`,
  unsupported_character: () => 'This password contains a rare symbol the service cannot accept. Replace it with another character.',
};

function passwordProblemText(reason: string | undefined, minLength: number): string {
  const words = reason !== undefined && Object.hasOwn(PASSWORD_PROBLEMS, reason) ? PASSWORD_PROBLEMS[reason as PasswordProblem] : undefined;
  return words ? words(minLength) : 'Check the password and try again.';
}

/** What the failed post's redirect says: the error code, the form, and a refused password's reason. */
export interface FailedPost {
  code: string | undefined;
  form: string | undefined;
  reason: string | undefined;
  /** when a rate limit lifts (Unix seconds) */
  retryAt?: number | undefined;
}

/** Places the error a form post came back with, given the email typed and the time the page is drawn. */
export function placeLoginError(failed: FailedPost, email: string | undefined, minLength: number, nowMs: number): PlacedError | undefined {
  const { code } = failed;
  if (!code) return undefined;
  const which: LoginForm = failed.form === 'register' ? 'register' : 'login';
  if (code === 'rate_limited') return { form: which, code, place: 'form', text: `Too many attempts. ${tryAgainWords(failed.retryAt, nowMs)}` };
  const fixed = FIXED[code];
  if (fixed) return { form: which, code, ...fixed };
  if (code === 'validation') {
    if (!isValidEmail(email)) return { form: which, code, place: 'email', text: 'Enter a valid email address, like name@example.com.' };
    const text = which === 'register' ? passwordProblemText(failed.reason, minLength) : 'Enter your password.';
    return { form: which, code, place: 'password', text };
  }
  return { form: which, code, place: 'form', text: 'Sign-in failed. Try again.' };
}
