/**
 * Delivers the outbox: every poll (and at once when a message is queued here) it takes the
 * messages whose time has come, claims each, hands it to the transport and removes it once
 * accepted. A failure is tried again after a back-off that doubles from `retryMs` (at most an hour),
 * logged `mail_delivery_failed`; after `maxAttempts` the message is set aside (`mail_dead_lettered`).
 * Each attempt makes the message's secrets afresh (src/contract/mail-secrets.ts): their hashes go
 * to key-value, replacing an earlier attempt's, and the secrets only into the text handed to the
 * transport; so of two copies delivered (a lost acknowledgement, a claim that ran out) only the
 * newest one's links work. Logs name the message's id and the transport's reason, never an
 * address or the text.
 */
import { fillMailSecretsIn, type MailSecretHashes } from '../../src/contract/mail-secrets.ts';
import { describeError, type HostLogger } from '../log.ts';
import type { MailOutbox } from './outbox.ts';
import type { MailTransport } from './transport.ts';

export interface DeliveryOptions {
  maxAttempts: number;
  /** first retry delay; doubles with each failure */
  retryMs: number;
  /** how often the outbox is looked at without a wake-up */
  pollMs: number;
  /** how long a claim holds a message against other deliverers (a delivery's longest time) */
  claimMs: number;
  now?: () => number;
}

const MAX_RETRY_MS = 3_600_000;
const BATCH = 20;

export function retryDelayMs(attempts: number, retryMs: number): number {
  return Math.min(MAX_RETRY_MS, retryMs * 2 ** Math.max(0, attempts - 1));
}

export class MailDelivery {
  readonly #outbox: MailOutbox;
  readonly #hashes: MailSecretHashes;
  readonly #transport: MailTransport;
  readonly #logger: HostLogger;
  readonly #options: Required<DeliveryOptions>;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #running: Promise<void> | undefined;
  #again = false;
  #stopped = false;

  /** `hashes`: the key-value of the store the outbox is in, where the secrets' hashes go. */
  constructor(outbox: MailOutbox, hashes: MailSecretHashes, transport: MailTransport, logger: HostLogger, options: DeliveryOptions) {
    this.#outbox = outbox;
    this.#hashes = hashes;
    this.#transport = transport;
    this.#logger = logger;
    this.#options = { now: () => Date.now(), ...options };
  }

  start(): void {
    this.wake();
  }

  /** Looks at the outbox now (after the run in progress, if any). */
  wake(): void {
    if (this.#stopped) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    clearTimeout(this.#timer);
    this.#running = this.#run().finally(() => {
      this.#running = undefined;
      if (this.#stopped) return;
      if (this.#again) {
        this.#again = false;
        this.wake();
        return;
      }
      this.#timer = setTimeout(() => this.wake(), this.#options.pollMs);
      this.#timer.unref();
    });
  }

  /** Delivers what is due once; resolves when done (tests and the drain tool). Returns how many were delivered. */
  async runOnce(): Promise<number> {
    let delivered = 0;
    const now = this.#options.now();
    let due;
    try {
      due = await this.#outbox.due(now, BATCH);
    } catch (error) {
      this.#logger.log('warn', 'the mail outbox could not be read', { code: 'mail_outbox_unavailable', error: describeError(error) });
      return 0;
    }
    for (const { id } of due) {
      if (this.#stopped) break;
      if (await this.#deliver(id)) delivered++;
    }
    return delivered;
  }

  async #run(): Promise<void> {
    // A full batch may hide more behind it: keep going while batches come back full.
    for (;;) {
      const delivered = await this.runOnce();
      if (delivered < BATCH || this.#stopped) return;
    }
  }

  async #deliver(id: string): Promise<boolean> {
    const { now, claimMs, maxAttempts, retryMs } = this.#options;
    try {
      const entry = await this.#outbox.claim(id, now(), now() + claimMs);
      if (!entry) return false;
      const { sender, recipient, subject, text, html, secrets } = entry.message;
      // Before the transport has it: a link may be followed as soon as the mail arrives.
      const [filledText = '', filledHtml] = await fillMailSecretsIn(html ? [text, html] : [text], secrets, this.#hashes);
      try {
        await this.#transport.send({ sender, recipient, subject, text: filledText, html: filledHtml, date: new Date(entry.queued_at) });
      } catch (error) {
        const reason = describeError(error).slice(0, 300);
        const attempts = entry.attempts + 1;
        if (attempts >= maxAttempts) {
          await this.#outbox.failed(id, entry, reason, undefined, now());
          this.#logger.log('error', 'mail set aside after too many failed deliveries', {
            code: 'mail_dead_lettered',
            id,
            attempts,
            transport: this.#transport.kind,
            error: reason,
          });
        } else {
          const retryAt = now() + retryDelayMs(attempts, retryMs);
          await this.#outbox.failed(id, entry, reason, retryAt, now());
          this.#logger.log('warn', 'mail delivery failed; will retry', {
            code: 'mail_delivery_failed',
            id,
            attempts,
            retry_at: new Date(retryAt).toISOString(),
            transport: this.#transport.kind,
            error: reason,
          });
        }
        return false;
      }
      await this.#outbox.delivered(id);
      this.#logger.log('info', 'mail delivered', { code: 'mail_delivered', id, attempts: entry.attempts + 1, transport: this.#transport.kind });
      return true;
    } catch (error) {
      // The store failed around a delivery: the claim runs out and the message is tried again.
      this.#logger.log('warn', 'the mail outbox could not be updated', { code: 'mail_outbox_unavailable', id, error: describeError(error) });
      return false;
    }
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
    this.#transport.close();
  }
}
