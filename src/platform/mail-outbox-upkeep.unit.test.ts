import { describe, expect, it } from 'vitest';
import { MAIL_OUTBOX, newOutboxEntry, type OutboxEntry } from '../contract/mail-outbox.ts';
import { expireDeadLetters, purgeMailTo } from './mail-outbox-upkeep.ts';
import { Faults } from './testing/faults.ts';
import { MemoryProjectionStore } from './testing/memory-projection-store.ts';

const DAY = 86_400_000;

function outbox(entries: Array<{ collection: string; id: string; entry: OutboxEntry }>) {
  const store = new MemoryProjectionStore(new Faults());
  const changes = entries.map(({ collection, id, entry }) => ({ tag: 'put' as const, val: { collection, id, body: JSON.stringify(entry) } }));
  expect(store.commit(MAIL_OUTBOX.projection, 0n, 1n, changes)).toBe(true);
  return store;
}
const message = (recipient: string) => ({ sender: 'Counter <no-reply@example.com>', recipient, subject: 's', text: 't' });
const ids = (store: MemoryProjectionStore, collection: string) => store.listDocuments(collection, undefined, 100).map((d) => d.id);

describe('mail outbox upkeep', () => {
  it('expires dead letters set aside longer than the retention, by when they were set aside', () => {
    const now = 100 * DAY;
    const store = outbox([
      { collection: MAIL_OUTBOX.deadLetters, id: 'old', entry: { ...newOutboxEntry(message('a@example.com'), 0), dead_at: now - 31 * DAY } },
      { collection: MAIL_OUTBOX.deadLetters, id: 'recent', entry: { ...newOutboxEntry(message('b@example.com'), 0), dead_at: now - 29 * DAY } },
      // Set aside before `dead_at` existed: its last claim stands for it.
      { collection: MAIL_OUTBOX.deadLetters, id: 'legacy', entry: { ...newOutboxEntry(message('c@example.com'), 0), next_attempt_at: now - 40 * DAY } },
      { collection: MAIL_OUTBOX.collection, id: 'queued', entry: newOutboxEntry(message('d@example.com'), 0) },
    ]);
    expect(expireDeadLetters(store, now, 30 * 86_400)).toBe(2);
    expect(ids(store, MAIL_OUTBOX.deadLetters)).toEqual(['recent']);
    expect(ids(store, MAIL_OUTBOX.collection)).toEqual(['queued']);
    expect(store.checkpoint(MAIL_OUTBOX.projection)).toBe(2n);
    expect(expireDeadLetters(store, now, 0)).toBe(1);
  });

  it('removes queued and set-aside messages to an address, whatever its case, and no other', () => {
    const store = outbox([
      { collection: MAIL_OUTBOX.collection, id: 'q1', entry: newOutboxEntry(message('Gone@Example.com'), 0) },
      { collection: MAIL_OUTBOX.collection, id: 'q2', entry: newOutboxEntry(message('kept@example.com'), 0) },
      { collection: MAIL_OUTBOX.deadLetters, id: 'd1', entry: { ...newOutboxEntry(message('gone@example.com'), 0), dead_at: 0 } },
    ]);
    expect(purgeMailTo(store, 'gone@example.com')).toBe(2);
    expect(ids(store, MAIL_OUTBOX.collection)).toEqual(['q2']);
    expect(ids(store, MAIL_OUTBOX.deadLetters)).toEqual([]);
    expect(purgeMailTo(store, 'gone@example.com')).toBe(0);
  });
});
