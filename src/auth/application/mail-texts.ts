/**
 * The words of the service's mails, each written once as blocks (paragraphs and links) and
 * rendered twice: plain text (the link on a line of its own) and HTML in the product's design
 * (./mail-html.ts), sent together as multipart/alternative. Every mail names the service
 * (`APP_NAME`). A link may hold a secret's placeholder: the deliverer fills it in both parts.
 */
import type { MailMessage } from '../../platform/ports.ts';
import { mailHtml, type MailBlock } from './mail-html.ts';

type Text = Pick<MailMessage, 'subject' | 'text' | 'html'>;

function plain(appName: string, blocks: readonly MailBlock[]): string {
  const parts = blocks.map((block) => ('link' in block ? `${block.label}:\n\n${block.link}` : block.text));
  return `${[`Hello from ${appName},`, ...parts, `— ${appName}`].join('\n\n')}\n`;
}

function mail(appName: string, subject: string, blocks: readonly MailBlock[]): Text {
  return { subject, text: plain(appName, blocks), html: mailHtml(appName, subject, blocks) };
}

export const mailTexts = {
  verify: (appName: string, link: string): Text =>
    mail(appName, 'Confirm your email address', [
      { text: `Someone, hopefully you, created a ${appName} account with this address.` },
      { label: 'To confirm the address, open this link within 24 hours', link, button: 'Confirm my address' },
      { text: 'If it was not you, ignore this mail: nothing happens without the link.' },
    ]),
  reset: (appName: string, link: string): Text =>
    mail(appName, 'Reset your password', [
      { text: `Someone asked to reset the password of the ${appName} account with this address.` },
      { label: 'To choose a new password, open this link within 30 minutes', link, button: 'Choose a new password' },
      { text: 'It works once. If you did not ask, ignore this mail: your password stays as it is.' },
    ]),
  passwordChanged: (appName: string, via: 'reset' | 'change', baseUrl: string): Text =>
    mail(appName, 'Your password was changed', [
      {
        text: `The password of your ${appName} account was just ${via === 'reset' ? 'reset with a link mailed to this address; every session of the account was ended' : 'changed from the account page; your other sessions were ended'}.`,
      },
      { label: 'If it was not you, reset your password at once', link: `${baseUrl}/forgot-password`, button: 'Reset my password' },
    ]),
  /** To the owner of an address someone tried to register again: the way back in, nothing else. */
  accountExists: (appName: string, baseUrl: string): Text =>
    mail(appName, 'You already have an account', [
      { text: `Someone, hopefully you, tried to create a ${appName} account with this address, but you already have one. Nothing was changed.` },
      { label: 'Sign in', link: `${baseUrl}/login`, button: 'Sign in' },
      { label: 'Forgot your password? Choose a new one', link: `${baseUrl}/forgot-password`, button: 'Reset my password' },
      { text: 'If it was not you, ignore this mail.' },
    ]),
};
