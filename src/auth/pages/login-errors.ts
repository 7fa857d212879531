/**
 * Where a failed form post's error is shown on /login and in which words: next to the field it
 * concerns, or at the top of its form when it concerns neither. The codes are the error
 * envelope's (src/errors.ts); the words never say whether an account exists (registration
 * answers a taken email like a free one, docs/security.md finding 11).
 */
import { normalizeEmail } from '../domain/email.ts';

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
  rate_limited: { place: 'form', text: 'Too many failed attempts. Try again later.' },
  forbidden: { place: 'form', text: 'The request was refused. Reload the page and try again.' },
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

/** Places the error `code` came back with, given the form it came from and the email typed. */
export function placeLoginError(code: string | undefined, form: string | undefined, email: string | undefined, minLength: number): PlacedError | undefined {
  if (!code) return undefined;
  const which: LoginForm = form === 'register' ? 'register' : 'login';
  const fixed = FIXED[code];
  if (fixed) return { form: which, code, ...fixed };
  if (code === 'validation') {
    if (!isValidEmail(email)) return { form: which, code, place: 'email', text: 'Enter a valid email address, like name@example.com.' };
    // The redirect carries only the code: a registration's validation is the length or, rarely, a
    // character the service cannot normalize (src/auth/domain/password-policy.ts), so name both.
    const text = which === 'register' ? `Use at least ${minLength} characters. A few rare symbols are not accepted.` : 'Enter your password.';
    return { form: which, code, place: 'password', text };
  }
  return { form: which, code, place: 'form', text: 'Sign-in failed. Try again.' };
}
