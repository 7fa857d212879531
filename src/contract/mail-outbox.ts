/**
 * The mail outbox's format in the store, shared by every writer and reader: the Node host (which
 * queues and delivers), the standalone component (which queues into its file store under
 * `wasmtime serve`) and `npm run mail:drain` (which delivers from that store). Entries are
 * projection-store documents; every change to them is one commit of the `mail_outbox` checkpoint,
 * moved forward by one, so two writers never both change the outbox from the same state.
 * A message's secrets (a link's token) are not in it: they are made at delivery (mail-secrets.ts).
 */
import type { StoredMailSecret } from './mail-secrets.ts';

/** Where queued and set-aside messages live, and the checkpoint every outbox change moves. */
export const MAIL_OUTBOX = {
  projection: 'mail_outbox',
  collection: 'mail_outbox',
  deadLetters: 'mail_dead_letters',
} as const;

/** A message as it is sent: its secrets filled in. */
export interface OutgoingMail {
  sender: string;
  recipient: string;
  subject: string;
  text: string;
  /** the same body as HTML (multipart/alternative); absent or empty: plain text only */
  html?: string | undefined;
  /** when it was queued: its `Date` header (RFC 5322 §3.6.1, "the date and time at which the creator of the message indicated that the message was complete") */
  date?: Date | undefined;
}

/** A message as the outbox keeps it: `text` and `html` hold its secrets' placeholders (an entry queued by an earlier release has no `secrets` nor `html`). */
export interface MailMessageFields extends Omit<OutgoingMail, 'date'> {
  secrets?: StoredMailSecret[];
}

/** One queued message and its delivery state. */
export interface OutboxEntry {
  message: MailMessageFields;
  /** epoch ms */
  queued_at: number;
  /** failed deliveries so far */
  attempts: number;
  /** epoch ms: not tried before (also how long a deliverer's claim holds) */
  next_attempt_at: number;
  /** why the last delivery failed (transport's words, never the message) */
  last_error?: string;
  /** epoch ms: when it was set aside among the dead letters (their retention counts from here) */
  dead_at?: number;
}

/** A new id that sorts by queue time, so listing the outbox gives the oldest first. */
export function newOutboxId(now: number): string {
  const random = Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, '0')).join('');
  return `${now.toString().padStart(15, '0')}-${random}`;
}

export function newOutboxEntry(message: MailMessageFields, now: number): OutboxEntry {
  return { message, queued_at: now, attempts: 0, next_attempt_at: now };
}

/** How many times a writer re-reads the checkpoint when another writer committed first. */
export const OUTBOX_COMMIT_RACES = 100;
