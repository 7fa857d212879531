/**
 * The storage contract for `event-store.truncate-before` (wit/event-store.wit), run by
 * runStorageContract for every backend: the stream's events below the revision are gone from
 * every read, its newest event always stays, its revision and numbering do not change (an exact
 * append still works), other streams and the sequence are untouched (removed sequences are never
 * assigned again), count-by-type keeps counting the removed events, and remove-stream removes the
 * rest.
 */
import { describe, expect, it } from 'vitest';
import { any, BEYOND_DOUBLE, event, exact, noStream, U64_MAX, type ContractContext } from './support.ts';

const revisions = (events: ReadonlyArray<{ revision: bigint }>) => events.map((e) => e.revision);

export function truncateBeforeCases({ open, second }: ContractContext): void {
  describe('event-store truncate-before', () => {
    it('removes the events below the revision and keeps the numbering', async () => {
      const s = await open();
      await s.events.append('t', noStream, [event('u.a', { secret: 'old-1' })]);
      await s.events.append('other', noStream, [event('u.a', { n: 1 })]);
      await s.events.append('t', exact(1n), [event('u.a', { secret: 'old-2' })]);
      await s.events.append('t', exact(2n), [event('u.b', { n: 3 })]);
      await s.events.append('t', exact(3n), [event('u.b', { n: 4 })]);

      expect(await s.events.truncateBefore('t', 3n)).toBe(2n);
      expect(await s.events.streamRevision('t')).toBe(4n);
      expect(revisions(await s.events.readStream('t', { direction: 'forward', limit: 10 }))).toEqual([3n, 4n]);
      expect(revisions(await s.events.readStream('t', { direction: 'forward', fromRevision: 1n, limit: 10 }))).toEqual([3n, 4n]);
      expect(revisions(await s.events.readStream('t', { direction: 'forward', fromRevision: 4n, limit: 10 }))).toEqual([4n]);
      expect(revisions(await s.events.readStream('t', { direction: 'backward', limit: 10 }))).toEqual([4n, 3n]);
      expect(revisions(await s.events.readStream('t', { direction: 'backward', fromRevision: 2n, limit: 10 }))).toEqual([]);
      expect(revisions(await s.events.readStream('t', { direction: 'backward', fromRevision: 3n, limit: 10 }))).toEqual([3n]);
      const all = await s.events.readAll(0n, 100);
      expect(all.map((e) => [e.streamId, e.sequence])).toEqual([
        ['other', 2n],
        ['t', 4n],
        ['t', 5n],
      ]);
      expect(JSON.stringify(all.map((e) => e.payload))).not.toContain('secret');
      expect(await s.events.headSequence()).toBe(5n);

      // Appends against the unchanged revision keep working, with new sequences.
      await expect((async () => s.events.append('t', exact(3n), [event('u.b')]))()).rejects.toMatchObject({ payload: { tag: 'conflict' } });
      const [next] = await s.events.append('t', exact(4n), [event('u.b', { n: 5 })]);
      expect(next).toMatchObject({ revision: 5n, sequence: 6n });
      expect(revisions(await s.events.readStream('t', { direction: 'forward', limit: 10 }))).toEqual([3n, 4n, 5n]);
    });

    it('always keeps the newest event; removes nothing below the oldest kept', async () => {
      const s = await open();
      await s.events.append('t', noStream, [event('k.a'), event('k.a'), event('k.a')]);
      expect(await s.events.truncateBefore('t', 0n)).toBe(0n);
      expect(await s.events.truncateBefore('t', 1n)).toBe(0n);
      expect(await s.events.truncateBefore('t', U64_MAX)).toBe(2n);
      expect(await s.events.streamRevision('t')).toBe(3n);
      expect(revisions(await s.events.readStream('t', { direction: 'forward', limit: 10 }))).toEqual([3n]);
      expect(await s.events.truncateBefore('t', BEYOND_DOUBLE)).toBe(0n);
      expect(await s.events.truncateBefore('t', 3n)).toBe(0n);
      expect(await s.events.truncateBefore('never-written', 5n)).toBe(0n);
      expect(await s.events.streamRevision('never-written')).toBe(0n);
    });

    it('a batch appended together may be cut inside', async () => {
      const s = await open();
      await s.events.append('t', noStream, [event('b.a', { n: 1 }), event('b.a', { n: 2 }), event('b.a', { n: 3 })]);
      await s.events.append('t', exact(3n), [event('b.a', { n: 4 })]);
      expect(await s.events.truncateBefore('t', 3n)).toBe(2n);
      const kept = await s.events.readStream('t', { direction: 'forward', limit: 10 });
      expect(kept.map((e) => [e.revision, JSON.parse(e.payload)])).toEqual([
        [3n, { n: 3 }],
        [4n, { n: 4 }],
      ]);
      expect((await s.events.readAll(0n, 10)).map((e) => e.revision)).toEqual([3n, 4n]);
    });

    it('count-by-type still counts the removed events; remove-stream removes the rest', async () => {
      const s = await open();
      await s.events.append('t', noStream, [event('c.x')]);
      await s.events.append('t', exact(1n), [event('c.y')]);
      await s.events.append('t', exact(2n), [event('c.x')]);
      expect(await s.events.truncateBefore('t', 3n)).toBe(2n);
      const counts = async () => [...(await s.events.countByType('c.'))].sort((p, q) => (p.eventType < q.eventType ? -1 : 1));
      expect(await counts()).toEqual([
        { eventType: 'c.x', count: 2n },
        { eventType: 'c.y', count: 1n },
      ]);
      expect(await s.events.removeStream('t', any)).toBe(1n);
      expect(await s.events.streamRevision('t')).toBe(0n);
      expect(await counts()).toEqual([
        { eventType: 'c.x', count: 2n },
        { eventType: 'c.y', count: 1n },
      ]);
      // Created again from revision 1, as after any removal.
      const [again] = await s.events.append('t', noStream, [event('c.x')]);
      expect(again).toMatchObject({ revision: 1n, sequence: 4n });
      expect(revisions(await s.events.readStream('t', { direction: 'forward', limit: 10 }))).toEqual([1n]);
    });

    it('bounds a stream that is truncated after each append', async () => {
      const s = await open();
      for (let n = 1n; n <= 30n; n++) {
        await s.events.append('counter', n === 1n ? noStream : exact(n - 1n), [event('g.used', { n: Number(n) })]);
        await s.events.truncateBefore('counter', n);
      }
      const kept = await s.events.readStream('counter', { direction: 'forward', limit: 100 });
      expect(kept.map((e) => [e.revision, JSON.parse(e.payload)])).toEqual([[30n, { n: 30 }]]);
      expect(await s.events.readAll(0n, 100)).toHaveLength(1);
      expect(await s.events.countByType('g.')).toEqual([{ eventType: 'g.used', count: 30n }]);
    });

    it('another connection sees the truncation', async () => {
      const a = await open();
      const b = await second();
      if (b === undefined) return;
      await a.events.append('shared', noStream, [event('s'), event('s')]);
      expect(revisions(await b.events.readStream('shared', { direction: 'forward', limit: 10 }))).toEqual([1n, 2n]);
      expect(await a.events.truncateBefore('shared', 2n)).toBe(1n);
      expect(revisions(await b.events.readStream('shared', { direction: 'forward', limit: 10 }))).toEqual([2n]);
      expect(await b.events.streamRevision('shared')).toBe(2n);
      expect((await b.events.readAll(0n, 10)).map((e) => e.revision)).toEqual([2n]);
      await b.events.append('shared', exact(2n), [event('s')]);
      expect(await a.events.streamRevision('shared')).toBe(3n);
    });
  });
}
