/**
 * Where the outbox's messages go: an SMTP server (nodemailer, `SMTP_URL`), or, in development
 * without one, the host's log, so the links in them can be followed from the console.
 */
import nodemailer from 'nodemailer';
import type { OutgoingMail } from '../../src/contract/mail-outbox.ts';
import type { HostLogger } from '../log.ts';

export interface MailTransport {
  /** `smtp` or `console`, for logs. */
  readonly kind: string;
  /** Resolves once the transport accepted the message; rejects with the transport's reason. */
  send(message: OutgoingMail): Promise<void>;
  close(): void;
}

export interface SmtpSettings {
  /** smtp:// or smtps://, credentials possibly inside */
  url: string;
  user: string | undefined;
  password: string | undefined;
}

/** Short limits: a server that does not answer is a failed attempt, tried again later. */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

export function smtpTransport(settings: SmtpSettings): MailTransport {
  const auth = settings.user !== undefined ? { auth: { user: settings.user, pass: settings.password ?? '' } } : {};
  const transporter = nodemailer.createTransport({ url: settings.url, ...auth, ...SMTP_TIMEOUTS });
  return {
    kind: 'smtp',
    async send(message) {
      await transporter.sendMail({ from: message.sender, to: message.recipient, subject: message.subject, text: message.text });
    },
    close: () => transporter.close(),
  };
}

/** Development only (host/mail/settings.ts): the message's subject and text on the log, where its links can be followed. */
export function consoleTransport(logger: HostLogger): MailTransport {
  return {
    kind: 'console',
    async send(message) {
      logger.log('info', `mail (not sent: no SMTP_URL in development): ${message.subject}\n${message.text}`, { code: 'mail_logged', subject: message.subject, text: message.text });
    },
    close() {},
  };
}
