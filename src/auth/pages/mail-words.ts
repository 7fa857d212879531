/**
 * The words the mailed-link pages and the account page's password and email forms show for an
 * outcome: a notice after a success, an error after a refusal (the error envelope's codes). They
 * never say whether an address has an account.
 */
import { PASSWORD_MAX_LENGTH, type PasswordProblem } from '../domain/password-policy.ts';
import { tryAgainWords } from '../../text/wait-words.ts';
import { EMAIL_CHANGE_NOTICES } from './email-change-words.ts';

export const MAIL_NOTICES: Record<string, string> = {
  sent: 'If an account uses this address, a link to reset its password is on its way. It works for 30 minutes; check your spam folder too.',
  password_reset: 'Your password is reset, and every session of the account has ended. Sign in with the new password.',
  email_verified: 'Your email address is verified.',
  verification_sent: 'A new verification link is on its way. The previous one no longer works.',
  password_changed: 'Your password is changed. Your other sessions have ended.',
  passkeys_removed: 'The passkeys you ticked are removed: they sign nobody in any more.',
  provider_linked: 'The provider is linked: you can sign in to this account with it too.',
  provider_unlinked: 'The provider is unlinked: it no longer signs in to this account. Your other sessions have ended.',
  passkey_removed: 'The passkey is removed: it signs nobody in any more. Your other sessions have ended.',
  password_removed: 'Your password is removed: sign in with your other methods. Your other sessions have ended.',
  ...EMAIL_CHANGE_NOTICES,
};

const PASSWORD_PROBLEMS: Record<PasswordProblem, (minLength: number) => string> = {
  too_short: (minLength) => `Use at least ${minLength} characters.`,
  too_long: () => `Use at most ${PASSWORD_MAX_LENGTH} characters.`,
  unsupported_character: () => 'This password contains a rare symbol the service cannot accept. Replace it with another character.',
};

/** What went wrong, in words, for a form of the mailed-link flows; `retryAt` (Unix seconds) and `nowMs` say when a rate limit lifts. */
export function mailErrorText(code: string | undefined, reason: string | undefined, minLength: number, retryAt?: number, nowMs = 0): string | undefined {
  if (!code) return undefined;
  if (code === 'rate_limited') return `Too many attempts. ${tryAgainWords(retryAt, nowMs)}`;
  if (code === 'validation' && reason && Object.hasOwn(PASSWORD_PROBLEMS, reason)) return PASSWORD_PROBLEMS[reason as PasswordProblem](minLength);
  const words: Record<string, string> = {
    validation: 'Check what you typed and try again.',
    not_found: 'This link does not work any more: it was used, it expired, or a newer one was sent. Ask for a new one.',
    forbidden: 'This link is for another account, or the request was refused. Sign out, then open the link again.',
    invalid_credentials: 'The current password is not right.',
    conflict: 'The account changed meanwhile. Reload the page and try again.',
    unauthorized: 'Sign in first.',
    store: 'The service is unavailable. Try again later.',
  };
  return words[code] ?? 'That did not work. Try again.';
}
