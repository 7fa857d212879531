/**
 * The words of changing the email address: the notices after a success (on the account page and
 * /login) and the refusals of its forms (the card, /confirm-email-change, /undo-email-change).
 */
import { tryAgainWords } from '../../text/wait-words.ts';

export const EMAIL_CHANGE_NOTICES: Record<string, string> = {
  email_change_sent: 'A link is on its way to the new address: open it within 24 hours to make it your address. Until then nothing changes.',
  email_change_cancelled: 'The change of address is cancelled: its link no longer works.',
  email_changed: 'Your email address is changed, and verified. The old address was told, with a way to undo it.',
  email_change_undone:
    'The change of address is undone: the account has its old address again, and every session has ended. Sign in, then reset your password if someone else knew it.',
  email_change_undone_kept:
    'Every session has ended, but the old address belongs to another account now, so the account keeps its new address. Reset your password if someone else knew it.',
};

/** The notices /login shows (the others are the account page's). */
export const EMAIL_CHANGE_LOGIN_NOTICES = ['email_changed', 'email_change_undone', 'email_change_undone_kept'] as const;

/** A refusal of the change form (on the account page) or of a link's page, in words. */
export function emailChangeErrorText(form: 'email_change' | 'confirm' | 'undo', code: string, retryAt: number | undefined, nowMs: number): string {
  if (code === 'rate_limited') return `Too many attempts. ${tryAgainWords(retryAt, nowMs)}`;
  if (form === 'email_change') {
    const words: Record<string, string> = {
      forbidden: 'Not changed: enter your password, or sign in again first (within 5 minutes).',
      conflict: 'This is your address already.',
      validation: 'Type a whole email address, like name@example.com.',
    };
    return words[code] ?? 'That did not work. Try again.';
  }
  const words: Record<string, string> = {
    not_found: 'This link does not work any more: it was used, it expired, or a newer one was sent.',
    forbidden: 'This link is for another account. Sign out, then open the link again.',
    conflict: 'The address was not changed: it belongs to another account now, or the account changed meanwhile.',
    validation: 'This link is not whole: open it from the mail again.',
  };
  return words[code] ?? 'That did not work. Try again.';
}
