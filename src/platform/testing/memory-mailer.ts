/** A Mailer that keeps what it was asked to send, for assertions (the outbox itself is the host's, tested there). */
import type { Mailer, MailMessage } from '../ports.ts';

export class MemoryMailer implements Mailer {
  readonly sent: MailMessage[] = [];
  send(message: MailMessage): string {
    this.sent.push({ ...message });
    return String(this.sent.length);
  }
}
