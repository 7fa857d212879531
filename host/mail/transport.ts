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
      // With an HTML part nodemailer sends multipart/alternative, the text first (RFC 2046 §5.1.4: the preferred last).
      await transporter.sendMail({
        from: message.sender,
        to: message.recipient,
        subject: message.subject,
        text: message.text,
        ...(message.html ? { html: message.html } : {}),
        ...(message.date ? { date: message.date } : {}),
      });
    },
    close: () => transporter.close(),
  };
}

/** The message as a person reads it in a terminal: a framed block, lines as they are. */
export function readableMail(message: OutgoingMail): string {
  const rule = '─'.repeat(72);
  return [
    `┌${rule}`,
    `│ mail not sent (no SMTP_URL in development)`,
    `│ To: ${message.recipient}`,
    `│ Subject: ${message.subject}`,
    '│',
    ...message.text.split('\n').map((line) => `│ ${line}`),
    `└${rule}`,
    '',
  ].join('\n');
}

/**
 * Development only (host/mail/settings.ts): the message printed readably on stderr, where its
 * links can be followed, and one log line that says so (stdout stays one JSON object per line).
 */
export function consoleTransport(logger: HostLogger, print: (text: string) => void = (text) => process.stderr.write(text)): MailTransport {
  return {
    kind: 'console',
    async send(message) {
      print(readableMail(message));
      logger.log('info', 'mail printed on stderr, not sent (no SMTP_URL in development)', { code: 'mail_logged', subject: message.subject });
    },
    close() {},
  };
}
