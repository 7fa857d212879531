/**
 * The words of the service's mails, each written once as blocks (paragraphs and links) and
 * rendered twice: plain text (the link on a line of its own) and HTML in the product's design
 * (./mail-html.ts), sent together as multipart/alternative. Every mail names the service
 * (`APP_NAME`). A link may hold a secret's placeholder: the deliverer fills it in both parts.
 */
import type { MailMessage } from '../../platform/ports.ts';
import { mailHtml, type MailBlock } from './mail-html.ts';
import type { MAIL_TEMPLATES, MailTemplateName } from '../../contract/mail-templates.ts';

type Text = Pick<MailMessage, 'subject' | 'text' | 'html' | 'template' | 'values'>;

function plain(appName: string, blocks: readonly MailBlock[]): string {
  const parts = blocks.map((block) => ('link' in block ? `${block.label}:\n\n${block.link}` : block.text));
  return `${[`Hello from ${appName},`, ...parts, `— ${appName}`].join('\n\n')}\n`;
}

/** The message, and the operator template that may stand for it with its values (src/contract/mail-templates.ts). */
function mail<T extends MailTemplateName>(template: T, values: Record<(typeof MAIL_TEMPLATES)[T][number], string>, subject: string, blocks: readonly MailBlock[]): Text {
  const appName = (values as Record<string, string>)['app_name'] ?? '';
  return { subject, text: plain(appName, blocks), html: mailHtml(appName, subject, blocks), template, values: Object.entries<string>(values) };
}

export const mailTexts = {
  verify: (appName: string, link: string): Text =>
    mail('verify', { app_name: appName, link }, 'Confirm your email address', [
      { text: `Someone, hopefully you, created a ${appName} account with this address.` },
      { label: 'To confirm the address, open this link within 24 hours', link, button: 'Confirm my address' },
      { text: 'If it was not you, ignore this mail: nothing happens without the link.' },
    ]),
  reset: (appName: string, link: string): Text =>
    mail('reset', { app_name: appName, link }, 'Reset your password', [
      { text: `Someone asked to reset the password of the ${appName} account with this address.` },
      { label: 'To choose a new password, open this link within 30 minutes', link, button: 'Choose a new password' },
      { text: 'It works once. If you did not ask, ignore this mail: your password stays as it is.' },
    ]),
  passwordChanged: (appName: string, via: 'reset' | 'change', baseUrl: string): Text =>
    mail('password_changed', { app_name: appName, link: `${baseUrl}/forgot-password` }, 'Your password was changed', [
      {
        text: `The password of your ${appName} account was just ${via === 'reset' ? 'reset with a link mailed to this address; every session of the account was ended' : 'changed from the account page; your other sessions were ended'}.`,
      },
      { label: 'If it was not you, reset your password at once', link: `${baseUrl}/forgot-password`, button: 'Reset my password' },
    ]),
  /** To the owner of an address someone tried to register again: the way back in, nothing else. */
  accountExists: (appName: string, baseUrl: string): Text =>
    mail('account_exists', { app_name: appName, login_link: `${baseUrl}/login`, reset_link: `${baseUrl}/forgot-password` }, 'You already have an account', [
      { text: `Someone, hopefully you, tried to create a ${appName} account with this address, but you already have one. Nothing was changed.` },
      { label: 'Sign in', link: `${baseUrl}/login`, button: 'Sign in' },
      { label: 'Forgot your password? Choose a new one', link: `${baseUrl}/forgot-password`, button: 'Reset my password' },
      { text: 'If it was not you, ignore this mail.' },
    ]),
  /** To the owner, for every passkey added: what was added, and the way to remove it. */
  passkeyAdded: (appName: string, name: string, addedAt: string, link: string, baseUrl: string): Text =>
    mail('passkey_added', { app_name: appName, passkey_name: name, added_at: addedAt, link, reset_link: `${baseUrl}/forgot-password` }, 'A passkey was added to your account', [
      { text: `A passkey named "${name}" was added to your ${appName} account at ${addedAt}. It signs in without the password.` },
      { label: 'If it was not you, open this link (within 7 days) to see your passkeys and remove the ones you do not know', link, button: 'See my passkeys' },
      { label: 'Then reset your password', link: `${baseUrl}/forgot-password`, button: 'Reset my password' },
    ]),
  /** To the account's verified address, for every sign-in method removed from the account page. */
  signInMethodRemoved: (appName: string, method: string, baseUrl: string): Text =>
    mail('sign_in_method_removed', { app_name: appName, method, link: `${baseUrl}/dashboard` }, 'A sign-in method was removed', [
      { text: `A sign-in method was removed from your ${appName} account: ${method}. It no longer signs in, and your other sessions were ended.` },
      { label: 'If it was not you, sign in, check your sign-in methods and sessions, and change your password', link: `${baseUrl}/dashboard`, button: 'See my account' },
    ]),
  /** To the new address of an address change: the link that moves the account to it. */
  emailChange: (appName: string, link: string): Text =>
    mail('email_change', { app_name: appName, link }, 'Confirm your new email address', [
      { text: `Someone, hopefully you, asked to move a ${appName} account to this address.` },
      { label: 'To make this your account’s address, open this link within 24 hours', link, button: 'Use this address' },
      { text: 'It works once. If it was not you, ignore this mail: nothing changes without the link.' },
    ]),
  /** To the old address once the change is made: the way to undo it and end every session. */
  emailChanged: (appName: string, link: string, baseUrl: string): Text =>
    mail('email_changed', { app_name: appName, link, reset_link: `${baseUrl}/forgot-password` }, 'Your email address was changed', [
      { text: `The address of your ${appName} account was just changed from this one to another. Mail about the account now goes there.` },
      { label: 'If it was not you, open this link within 7 days: it moves the account back to this address and ends every session', link, button: 'Undo the change' },
      { label: 'Then reset your password', link: `${baseUrl}/forgot-password`, button: 'Reset my password' },
    ]),
};
