import { describe, expect, it } from 'vitest';
import { StorageFailure } from '../platform-answer.ts';
import type { ExpectedRevision, NewEvent, RecordedEvent } from '../../src/contract/wit/interfaces/app-platform-event-store.js';
import { AppendQueue } from './append-queue.ts';

const ev = (name: string): NewEvent => ({ eventType: name, payload: '{}', metadata: '{}' });
const exact = (val: bigint): ExpectedRevision => ({ tag: 'exact', val });

/** A store whose appends wait for the test, checked against its revision like a real one. */
function gatedStore() {
  let revision = 0n;
  let sequence = 100n;
  const sent: Array<{ expected: ExpectedRevision; events: NewEvent[]; release: boolean; settle(): void; fail(): void }> = [];
  const releases: number[] = [];
  const send = (expected: ExpectedRevision, events: NewEvent[], release: boolean): Promise<RecordedEvent[]> =>
    new Promise((resolve, reject) => {
      sent.push({
        expected,
        events,
        release,
        settle: () => {
          const start = expected.tag === 'exact' ? expected.val : expected.tag === 'no-stream' ? 0n : revision;
          if (start !== revision) return reject(StorageFailure.conflict('s', expected, revision));
          resolve(events.map((e) => ({ ...e, streamId: 's', revision: ++revision, sequence: ++sequence, recordedAt: 1n })));
        },
        fail: () => reject(StorageFailure.unavailable('the store went away')),
      });
    });
  /** A writer outside the leases appends one event. */
  const bypass = (): void => {
    revision++;
  };
  return { send, sent, releases, release: () => releases.push(1), bypass };
}

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe('AppendQueue (group commit of one lease)', () => {
  it('sends the appends queued behind one in flight as one append, and gives each its own events', async () => {
    const store = gatedStore();
    const sent: number[] = [];
    const queue = new AppendQueue('s', store.send, store.release, (appends) => sent.push(appends));
    const a = queue.add({ tag: 'no-stream' }, [ev('a')], false);
    const b = queue.add(exact(1n), [ev('b1'), ev('b2')], false);
    const c = queue.add(exact(3n), [ev('c')], true);
    expect(store.sent).toHaveLength(1);
    store.sent[0]!.settle();
    expect((await a).map((e) => e.eventType)).toEqual(['a']);
    await tick();
    // b and c went out together: one append expecting b's revision, ending the lease as c asked.
    expect(store.sent).toHaveLength(2);
    expect(store.sent[1]!.expected).toEqual(exact(1n));
    expect(store.sent[1]!.events.map((e) => e.eventType)).toEqual(['b1', 'b2', 'c']);
    expect(store.sent[1]!.release).toBe(true);
    store.sent[1]!.settle();
    expect((await b).map((e) => [e.eventType, e.revision, e.sequence])).toEqual([
      ['b1', 2n, 102n],
      ['b2', 3n, 103n],
    ]);
    expect((await c).map((e) => [e.eventType, e.revision])).toEqual([['c', 4n]]);
    expect(sent).toEqual([1, 2]); // two store appends, carrying 1 and 2 of the lease's appends
    await queue.settled();
    expect(queue.busy).toBe(false);
  });

  it('refuses, unsent, every append queued behind one that failed, and ends the lease one of them was to end', async () => {
    const store = gatedStore();
    const queue = new AppendQueue('s', store.send, store.release);
    const a = queue.add({ tag: 'no-stream' }, [ev('a')], false);
    const b = queue.add(exact(1n), [ev('b')], false);
    const c = queue.add(exact(2n), [ev('c')], true);
    store.sent[0]!.fail();
    await expect(a).rejects.toMatchObject({ code: 'unavailable' });
    await expect(b).rejects.toMatchObject({ code: 'conflict', payload: { val: { actual: 0n } } });
    await expect(c).rejects.toMatchObject({ code: 'conflict' });
    expect(store.sent).toHaveLength(1);
    expect(store.releases).toHaveLength(1);
    expect(queue.busy).toBe(false);
  });

  it('fails the whole batch where its first append fails, as each would have in turn', async () => {
    const store = gatedStore();
    const queue = new AppendQueue('s', store.send, store.release);
    const a = queue.add({ tag: 'no-stream' }, [ev('a')], false);
    const b = queue.add(exact(1n), [ev('b')], false);
    const c = queue.add(exact(2n), [ev('c')], false);
    store.sent[0]!.settle();
    await a;
    await tick();
    // A writer outside the leases took revision 2 meanwhile: the batch (expecting 1) conflicts.
    store.bypass();
    store.sent[1]!.settle();
    await expect(b).rejects.toMatchObject({ code: 'conflict', payload: { val: { actual: 2n } } });
    await expect(c).rejects.toMatchObject({ code: 'conflict', payload: { val: { actual: 2n } } });
    expect(store.sent).toHaveLength(2);
  });

  it('sends an append that does not continue the one before on its own', async () => {
    const store = gatedStore();
    const queue = new AppendQueue('s', store.send, store.release);
    const a = queue.add({ tag: 'no-stream' }, [ev('a')], false);
    const b = queue.add(exact(1n), [ev('b')], false);
    const odd = queue.add({ tag: 'any' }, [ev('any')], false);
    store.sent[0]!.settle();
    await a;
    await tick();
    expect(store.sent[1]!.events.map((e) => e.eventType)).toEqual(['b']);
    store.sent[1]!.settle();
    await b;
    await tick();
    expect(store.sent[2]!.events.map((e) => e.eventType)).toEqual(['any']);
    store.sent[2]!.settle();
    expect((await odd)[0]?.revision).toBe(3n);
  });

  it('passes a synchronous store straight through: nothing stays in flight', () => {
    let revision = 0n;
    const queue = new AppendQueue(
      's',
      (_expected, events) => events.map((e) => ({ ...e, streamId: 's', revision: ++revision, sequence: revision, recordedAt: 1n })),
      () => {},
    );
    const recorded = queue.add({ tag: 'no-stream' }, [ev('a')], false);
    expect(Array.isArray(recorded)).toBe(true);
    expect(queue.busy).toBe(false);
  });
});
