/**
 * The durable outbox over the store's projection-store documents (format: src/contract/mail-outbox.ts).
 * Every change is one commit that moves the outbox checkpoint forward by one: a writer that lost
 * the race re-reads and tries again, so a message is claimed by one deliverer at a time across
 * threads and hosts sharing the store. A claim is a `next_attempt_at` in the future: a deliverer
 * that dies mid-delivery leaves it to be tried again when it passes (at-least-once). An entry holds
 * no secret: its links' secrets are made when it is delivered (delivery.ts).
 */
import * as v from 'valibot';
import { MAIL_OUTBOX, newOutboxEntry, newOutboxId, OUTBOX_COMMIT_RACES, type MailMessageFields, type OutboxEntry } from '../../src/contract/mail-outbox.ts';
import { StorageFailure } from '../storage/errors.ts';
import type { DocumentChange, ProjectionStoreBackend } from '../storage/types.ts';

const SecretSchema = v.object({ placeholder: v.string(), namespace: v.string(), key: v.string(), ttl_ms: v.number() });

const EntrySchema = v.object({
  // `secrets` absent: an entry an earlier release queued.
  message: v.object({ sender: v.string(), recipient: v.string(), subject: v.string(), text: v.string(), html: v.optional(v.string()), secrets: v.optional(v.array(SecretSchema)) }),
  queued_at: v.number(),
  attempts: v.number(),
  next_attempt_at: v.number(),
  last_error: v.optional(v.string()),
  dead_at: v.optional(v.number()),
});

export interface QueuedMessage {
  id: string;
  entry: OutboxEntry;
}

/** The projection-store part the outbox needs: the Node host's backends and the file store alike. */
export type OutboxStore = Pick<ProjectionStoreBackend, 'checkpoint' | 'commit' | 'getDocument' | 'listDocuments'>;

const put = (collection: string, id: string, entry: OutboxEntry): DocumentChange => ({ tag: 'put', val: { collection, id, body: JSON.stringify(entry) } });
const remove = (id: string): DocumentChange => ({ tag: 'delete', val: { collection: MAIL_OUTBOX.collection, id } });

function parseEntry(body: string): OutboxEntry | undefined {
  try {
    const result = v.safeParse(EntrySchema, JSON.parse(body));
    return result.success ? result.output : undefined;
  } catch {
    return undefined;
  }
}

export class MailOutbox {
  readonly #store: OutboxStore;
  constructor(store: OutboxStore) {
    this.#store = store;
  }

  /** Commits `changes` (built from the entry as currently stored, undefined when gone) until no other writer got in first. */
  async #change(build: () => Promise<DocumentChange[] | undefined>): Promise<boolean> {
    for (let race = 0; race < OUTBOX_COMMIT_RACES; race++) {
      const checkpoint = await this.#store.checkpoint(MAIL_OUTBOX.projection);
      const changes = await build();
      if (changes === undefined) return false;
      if (await this.#store.commit(MAIL_OUTBOX.projection, checkpoint, checkpoint + 1n, changes)) return true;
    }
    throw StorageFailure.unavailable('the mail outbox is too busy: every commit lost its race');
  }

  async enqueue(message: MailMessageFields, now: number): Promise<string> {
    const id = newOutboxId(now);
    const entry = newOutboxEntry(message, now);
    await this.#change(async () => [put(MAIL_OUTBOX.collection, id, entry)]);
    return id;
  }

  async #read(id: string): Promise<OutboxEntry | undefined> {
    const doc = await this.#store.getDocument({ collection: MAIL_OUTBOX.collection, id });
    return doc === undefined ? undefined : parseEntry(doc.body);
  }

  /** Messages whose time has come, oldest first: at most `limit`, from at most `scan` entries looked at. */
  async due(now: number, limit: number, scan = 1000): Promise<QueuedMessage[]> {
    const out: QueuedMessage[] = [];
    let after: string | undefined;
    for (let seen = 0; seen < scan && out.length < limit; ) {
      const docs = await this.#store.listDocuments(MAIL_OUTBOX.collection, after, 100);
      for (const doc of docs) {
        const entry = parseEntry(doc.body);
        if (entry && entry.next_attempt_at <= now && out.length < limit) out.push({ id: doc.id, entry });
      }
      seen += docs.length;
      after = docs.at(-1)?.id;
      if (docs.length < 100) break;
    }
    return out;
  }

  /** Takes the message for delivery until `until`; undefined when another deliverer has it or it is gone. */
  async claim(id: string, now: number, until: number): Promise<OutboxEntry | undefined> {
    let claimed: OutboxEntry | undefined;
    const done = await this.#change(async () => {
      const entry = await this.#read(id);
      if (!entry || entry.next_attempt_at > now) return undefined;
      claimed = { ...entry, next_attempt_at: until };
      return [put(MAIL_OUTBOX.collection, id, claimed)];
    });
    return done ? claimed : undefined;
  }

  async delivered(id: string): Promise<void> {
    await this.#change(async () => [remove(id)]);
  }

  /**
   * A failed delivery: tried again at `retryAt`, or set aside among the dead letters (at `now`)
   * when undefined. Nothing when the message left the outbox meanwhile (its recipient's data was
   * erased during the delivery): it must not come back.
   */
  async failed(id: string, entry: OutboxEntry, reason: string, retryAt: number | undefined, now: number): Promise<void> {
    const next: OutboxEntry = { ...entry, attempts: entry.attempts + 1, last_error: reason, next_attempt_at: retryAt ?? entry.next_attempt_at };
    await this.#change(async () => {
      if ((await this.#read(id)) === undefined) return undefined;
      return retryAt === undefined ? [remove(id), put(MAIL_OUTBOX.deadLetters, id, { ...next, dead_at: now })] : [put(MAIL_OUTBOX.collection, id, next)];
    });
  }

  /** Messages set aside after too many failed deliveries (operators; tests). */
  async deadLetters(limit: number): Promise<QueuedMessage[]> {
    const docs = await this.#store.listDocuments(MAIL_OUTBOX.deadLetters, undefined, limit);
    return docs.flatMap((doc) => {
      const entry = parseEntry(doc.body);
      return entry ? [{ id: doc.id, entry }] : [];
    });
  }
}
