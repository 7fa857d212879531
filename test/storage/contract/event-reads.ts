/** The storage contract, event-store reads: one stream in either direction, every stream in global order, counts by type. */
import { describe, expect, it } from 'vitest';
import type { StorageBackend, RecordedEvent } from '../../../host/storage/types.ts';
import { U64_MAX, any, noStream, event, failureTag, sequences, revisions, range, type ContractContext } from './support.ts';

export function eventReadCases({ open }: ContractContext): void {
  describe('event-store reads', () => {
    async function seeded(): Promise<StorageBackend> {
      const s = await open();
      await s.events.append('other', any, [event('noise')]);
      await s.events.append(
        's',
        noStream,
        [1, 2, 3, 4, 5].map((n) => event(`e${n}`)),
      );
      return s;
    }

    it('read-stream forward from the start, from a revision, with a limit', async () => {
      const s = await seeded();
      expect(revisions(await s.events.readStream('s', { direction: 'forward', limit: 1000 }))).toEqual(range(1, 5));
      expect(revisions(await s.events.readStream('s', { direction: 'forward', fromRevision: 3n, limit: 1000 }))).toEqual(range(3, 5));
      expect(revisions(await s.events.readStream('s', { direction: 'forward', fromRevision: 2n, limit: 2 }))).toEqual([2n, 3n]);
      expect(revisions(await s.events.readStream('s', { direction: 'forward', limit: 1 }))).toEqual([1n]);
      expect(revisions(await s.events.readStream('s', { direction: 'forward', fromRevision: 0n, limit: 2 }))).toEqual([1n, 2n]);
    });

    it('read-stream backward from the end, from a revision, with a limit', async () => {
      const s = await seeded();
      expect(revisions(await s.events.readStream('s', { direction: 'backward', limit: 1000 }))).toEqual([5n, 4n, 3n, 2n, 1n]);
      expect(revisions(await s.events.readStream('s', { direction: 'backward', fromRevision: 3n, limit: 1000 }))).toEqual([3n, 2n, 1n]);
      expect(revisions(await s.events.readStream('s', { direction: 'backward', fromRevision: 4n, limit: 2 }))).toEqual([4n, 3n]);
      expect(revisions(await s.events.readStream('s', { direction: 'backward', limit: 1 }))).toEqual([5n]);
    });

    it('read-stream beyond either end, and of a missing stream, is empty', async () => {
      const s = await seeded();
      expect(await s.events.readStream('s', { direction: 'forward', fromRevision: 6n, limit: 10 })).toEqual([]);
      expect(await s.events.readStream('s', { direction: 'forward', fromRevision: U64_MAX, limit: 10 })).toEqual([]);
      expect(await s.events.readStream('s', { direction: 'backward', fromRevision: 0n, limit: 10 })).toEqual([]);
      // Backward from past the end starts at the last event.
      expect(revisions(await s.events.readStream('s', { direction: 'backward', fromRevision: U64_MAX, limit: 2 }))).toEqual([5n, 4n]);
      expect(await s.events.readStream('missing', { direction: 'forward', limit: 10 })).toEqual([]);
      expect(await s.events.readStream('missing', { direction: 'backward', limit: 10 })).toEqual([]);
    });

    it('read-stream returns the events exactly as append recorded them', async () => {
      const s = await open();
      const recorded = await s.events.append('s', noStream, [event('a', { n: 1 }, { m: 1 }), event('b', [], null)]);
      expect(await s.events.readStream('s', { direction: 'forward', limit: 10 })).toEqual(recorded);
      expect(await s.events.readStream('s', { direction: 'backward', limit: 10 })).toEqual([...recorded].reverse());
      expect(await s.events.readAll(0n, 10)).toEqual(recorded);
    });

    it('stream-revision is 0 for a missing stream and the last revision otherwise', async () => {
      const s = await seeded();
      expect(await s.events.streamRevision('missing')).toBe(0n);
      expect(await s.events.streamRevision('s')).toBe(5n);
      expect(await s.events.streamRevision('other')).toBe(1n);
    });

    it('read-all pages through every stream in sequence order', async () => {
      const s = await open();
      const appended: RecordedEvent[] = [];
      for (let i = 0; i < 25; i++) appended.push(...(await s.events.append(`s${i % 3}`, any, [event(`t${i}`)])));
      const pages: RecordedEvent[][] = [];
      let after = 0n;
      for (;;) {
        const page = await s.events.readAll(after, 10);
        if (page.length === 0) break;
        pages.push(page);
        after = page.at(-1)!.sequence;
      }
      expect(pages.map((p) => p.length)).toEqual([10, 10, 5]);
      expect(pages.flat()).toEqual(appended);
      expect(sequences(pages.flat())).toEqual(range(1, 25));
      expect(sequences(await s.events.readAll(7n, 3))).toEqual([8n, 9n, 10n]);
    });

    it('read-all after the head, or far beyond it, is empty', async () => {
      const s = await seeded();
      expect(await s.events.readAll(6n, 10)).toEqual([]);
      expect(await s.events.readAll(1000n, 10)).toEqual([]);
      expect(await s.events.readAll(U64_MAX, 10)).toEqual([]);
    });

    it('head-sequence is 0 when empty and the last sequence afterwards', async () => {
      const s = await open();
      expect(await s.events.headSequence()).toBe(0n);
      expect(await s.events.readAll(0n, 10)).toEqual([]);
      await s.events.append('a', any, [event('x'), event('y')]);
      await s.events.append('b', any, [event('z')]);
      expect(await s.events.headSequence()).toBe(3n);
    });

    it('limits outside 1..=1000 are invalid', async () => {
      const s = await seeded();
      for (const limit of [0, -1, 1001, 1.5, Number.NaN]) {
        expect(await failureTag(() => s.events.readStream('s', { direction: 'forward', limit }))).toBe('invalid');
        expect(await failureTag(() => s.events.readStream('s', { direction: 'backward', limit }))).toBe('invalid');
        expect(await failureTag(() => s.events.readAll(0n, limit))).toBe('invalid');
      }
      expect(await s.events.readStream('s', { direction: 'forward', limit: 1000 })).toHaveLength(5);
      expect(await s.events.readAll(0n, 1000)).toHaveLength(6);
    });
  });

  describe('event-store count-by-type', () => {
    it('counts per type for an exact, case-sensitive prefix; "" counts everything', async () => {
      const s = await open();
      const types = ['user.created', 'user.deleted', 'user.created', 'order.placed', 'User.created', 'user.created'];
      for (const [i, type] of types.entries()) await s.events.append(`s${i % 2}`, any, [event(type)]);
      const sorted = async (prefix: string) => [...(await s.events.countByType(prefix))].sort((a, b) => (a.eventType < b.eventType ? -1 : 1));
      expect(await sorted('user.')).toEqual([
        { eventType: 'user.created', count: 3n },
        { eventType: 'user.deleted', count: 1n },
      ]);
      expect(await sorted('user.created')).toEqual([{ eventType: 'user.created', count: 3n }]);
      expect(await sorted('')).toEqual([
        { eventType: 'User.created', count: 1n },
        { eventType: 'order.placed', count: 1n },
        { eventType: 'user.created', count: 3n },
        { eventType: 'user.deleted', count: 1n },
      ]);
      expect(await sorted('nothing')).toEqual([]);
      expect(await sorted('user.created.more')).toEqual([]);
    });

    it('treats wildcard characters (% _ * ? [ \\) in the prefix literally', async () => {
      const s = await open();
      const types = ['a%b', 'axb', 'a_b', 'ayb', 'a*b', 'a?b', 'a[b]', 'ab', 'a\\b', 'a.b'];
      for (const type of types) await s.events.append('s', any, [event(type)]);
      for (const literal of ['a%', 'a_', 'a*', 'a?', 'a[', 'a\\', 'a.']) {
        const counts = (await s.events.countByType(literal)).map((c) => c.eventType).sort();
        expect(counts).toEqual(types.filter((t) => t.startsWith(literal)).sort());
      }
      expect(await s.events.countByType('%')).toEqual([]);
      expect(await s.events.countByType('_')).toEqual([]);
      expect(await s.events.countByType('*')).toEqual([]);
    });
  });
}
