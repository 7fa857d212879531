/**
 * What the component does to the mail outbox (format: src/contract/mail-outbox.ts) through its
 * projection-store port, on either runtime: the outbox is documents in the same store, whoever
 * delivers. Dead letters expire after their retention; a deleted account's queued and set-aside
 * messages go, so its address is nowhere. Each change is one commit moving the outbox checkpoint
 * by one, like every other outbox writer's.
 */
import * as v from 'valibot';
import { MAIL_OUTBOX, OUTBOX_COMMIT_RACES } from '../contract/mail-outbox.ts';
import { StoreError } from '../errors.ts';
import type { DocumentChange, ProjectionStore, StoredDocument } from './ports.ts';

const PAGE = 500;

/** The fields read here; everything else in an entry is the deliverer's. */
const EntryFields = v.object({
  message: v.object({ recipient: v.string() }),
  next_attempt_at: v.number(),
  dead_at: v.optional(v.number()),
});

function fields(doc: StoredDocument): v.InferOutput<typeof EntryFields> | undefined {
  try {
    const result = v.safeParse(EntryFields, JSON.parse(doc.body));
    return result.success ? result.output : undefined;
  } catch {
    return undefined;
  }
}

function* documents(projections: ProjectionStore, collection: string): Generator<StoredDocument> {
  let after: string | undefined;
  for (;;) {
    const page = projections.listDocuments(collection, after, PAGE);
    yield* page;
    if (page.length < PAGE) return;
    after = page.at(-1)!.id;
  }
}

/** Deletes the documents `pick` chooses, in one commit per page at the outbox checkpoint; returns how many. */
function deleteWhere(projections: ProjectionStore, collections: string[], pick: (doc: StoredDocument) => boolean): number {
  const deleted = 0;
  for (let race = 0; race < OUTBOX_COMMIT_RACES; race++) {
    const checkpoint = projections.checkpoint(MAIL_OUTBOX.projection);
    const changes: DocumentChange[] = collections.flatMap((collection) =>
      [...documents(projections, collection)].filter(pick).map((doc): DocumentChange => ({ tag: 'delete', val: { collection, id: doc.id } })),
    );
    if (changes.length === 0) return deleted;
    if (projections.commit(MAIL_OUTBOX.projection, checkpoint, checkpoint + 1n, changes)) return deleted + changes.length;
  }
  throw new StoreError('unavailable', 'the mail outbox is too busy');
}

/** Removes dead letters set aside more than `retentionSeconds` ago; returns how many. */
export function expireDeadLetters(projections: ProjectionStore, now: number, retentionSeconds: number): number {
  const until = now - retentionSeconds * 1000;
  return deleteWhere(projections, [MAIL_OUTBOX.deadLetters], (doc) => {
    const entry = fields(doc);
    // An entry set aside before `dead_at` was recorded: its last claim is when it was tried last.
    return entry !== undefined && (entry.dead_at ?? entry.next_attempt_at) <= until;
  });
}

/** Removes every queued and set-aside message to `address` (compared without case); returns how many. */
export function purgeMailTo(projections: ProjectionStore, address: string): number {
  const wanted = address.toLowerCase();
  return deleteWhere(projections, [MAIL_OUTBOX.collection, MAIL_OUTBOX.deadLetters], (doc) => fields(doc)?.message.recipient.toLowerCase() === wanted);
}
