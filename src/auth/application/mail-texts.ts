/** The words of the service's mails: plain text, the link on a line of its own. */
import type { MailMessage } from '../../platform/ports.ts';

type Text = Pick<MailMessage, 'subject' | 'text'>;

export const mailTexts = {
  verify: (link: string): Text => ({
    subject: 'Confirm your email address',
    text: `Someone, hopefully you, created an account with this address.\n\nTo confirm the address, open this link within 24 hours:\n\n${link}\n\nIf it was not you, ignore this mail: nothing happens without the link.\n`,
  }),
  reset: (link: string): Text => ({
    subject: 'Reset your password',
    text: `Someone asked to reset the password of the account with this address.\n\nTo choose a new password, open this link within 30 minutes:\n\n${link}\n\nIt works once. If you did not ask, ignore this mail: your password stays as it is.\n`,
  }),
  passkeyAdded: (name: string, addedAt: string, link: string, baseUrl: string): Text => ({
    subject: 'A passkey was added to your account',
    text: `A passkey named "${name}" was added to your account at ${addedAt}. It signs in without the password.\n\nIf it was not you, open this link (within 7 days) to see your passkeys and remove the ones you do not know:\n\n${link}\n\nThen reset your password:\n\n${baseUrl}/forgot-password\n`,
  }),
  passwordChanged: (via: 'reset' | 'change', baseUrl: string): Text => ({
    subject: 'Your password was changed',
    text: `The password of your account was just ${via === 'reset' ? 'reset with a link mailed to this address; every session of the account was ended' : 'changed from the account page; your other sessions were ended'}.\n\nIf it was not you, reset your password at once:\n\n${baseUrl}/forgot-password\n`,
  }),
};
