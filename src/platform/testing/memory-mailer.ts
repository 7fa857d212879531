/**
 * A Mailer that keeps what it was asked to send (`sent`, as queued: placeholders where the secrets
 * go), for assertions, and delivers it when a test says so, as the host's deliverer does: each
 * secret made then, its hash written to the platform's key-value (src/contract/mail-secrets.ts).
 * The outbox itself is the host's, tested there.
 */
import { fillMailSecrets, checkMailSecrets, type StoredMailSecret } from '../../contract/mail-secrets.ts';
import type { OutgoingMail } from '../../contract/mail-outbox.ts';
import { StoreError } from '../../errors.ts';
import type { KeyValue, Mailer, MailMessage } from '../ports.ts';

export class MemoryMailer implements Mailer {
  readonly sent: MailMessage[] = [];
  /** What reached the recipients, secrets filled in, in delivery order. */
  readonly delivered: OutgoingMail[] = [];
  readonly #slots: StoredMailSecret[][] = [];
  readonly #keyValue: KeyValue;
  #next = 0;

  constructor(keyValue: KeyValue) {
    this.#keyValue = keyValue;
  }

  send(message: MailMessage): string {
    const slots = checkMailSecrets(message.text, message.secrets ?? []);
    if (typeof slots === 'string') throw new StoreError('invalid', slots);
    this.sent.push({ ...message });
    this.#slots.push(slots);
    return String(this.sent.length);
  }

  /** Delivers everything queued since the last call; returns what it delivered. */
  async deliver(): Promise<OutgoingMail[]> {
    const start = this.delivered.length;
    for (; this.#next < this.sent.length; this.#next++) {
      const { sender, recipient, subject, text } = this.sent[this.#next]!;
      this.delivered.push({ sender, recipient, subject, text: await fillMailSecrets(text, this.#slots[this.#next], this.#keyValue) });
    }
    return this.delivered.slice(start);
  }
}
