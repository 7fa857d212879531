/**
 * The storage contract for `event-store.remove-stream` (wit/event-store.wit), run by
 * runStorageContract for every backend: a removed stream's events are gone from every read, its
 * revision is 0 and `no-stream` may create it again, other streams and the sequence are
 * untouched (removed sequences are never assigned again), and count-by-type keeps counting the
 * removed events.
 */
import { describe, expect, it } from 'vitest';
import { event, noStream, type ContractContext } from './support.ts';

export function removeStreamCases({ open, second }: ContractContext): void {
  describe('event-store remove-stream', () => {
    it('removes the stream from every read and leaves the others as they were', async () => {
      const s = await open();
      await s.events.append('keep', noStream, [event('t.a', { n: 1 })]);
      await s.events.append('gone', noStream, [event('t.a', { secret: 'x' }), event('t.b')]);
      await s.events.append('gone', { tag: 'exact', val: 2n }, [event('t.b')]);
      await s.events.append('keep', { tag: 'exact', val: 1n }, [event('t.a', { n: 2 })]);

      expect(await s.events.removeStream('gone')).toBe(3n);
      expect(await s.events.streamRevision('gone')).toBe(0n);
      expect(await s.events.readStream('gone', { direction: 'forward', limit: 10 })).toEqual([]);
      expect(await s.events.readStream('gone', { direction: 'backward', limit: 10 })).toEqual([]);
      const all = await s.events.readAll(0n, 100);
      expect(all.map((e) => [e.streamId, e.sequence])).toEqual([
        ['keep', 1n],
        ['keep', 5n],
      ]);
      expect(JSON.stringify(all.map((e) => e.payload))).not.toContain('secret');
      expect((await s.events.readStream('keep', { direction: 'forward', limit: 10 })).map((e) => e.revision)).toEqual([1n, 2n]);
      expect(await s.events.headSequence()).toBe(5n);
    });

    it('count-by-type still counts the removed events', async () => {
      const s = await open();
      await s.events.append('a', noStream, [event('r.x'), event('r.y')]);
      await s.events.append('b', noStream, [event('r.x')]);
      await s.events.removeStream('a');
      await s.events.removeStream('b');
      await s.events.append('c', noStream, [event('r.x')]);
      const counts = [...(await s.events.countByType('r.'))].sort((p, q) => (p.eventType < q.eventType ? -1 : 1));
      expect(counts).toEqual([
        { eventType: 'r.x', count: 3n },
        { eventType: 'r.y', count: 1n },
      ]);
    });

    it('a removed stream can be created again; removed sequences are never assigned again', async () => {
      const s = await open();
      await s.events.append('claim', noStream, [event('c')]);
      expect(await s.events.removeStream('claim')).toBe(1n);
      await expect(Promise.resolve(s.events.removeStream('claim'))).resolves.toBe(0n);
      const [again] = await s.events.append('claim', noStream, [event('c')]);
      expect(again).toMatchObject({ revision: 1n, sequence: 2n });
      expect(await s.events.removeStream('never-written')).toBe(0n);
    });

    it('another connection sees the removal', async () => {
      const a = await open();
      const b = await second();
      if (b === undefined) return;
      await a.events.append('shared', noStream, [event('s')]);
      expect(await b.events.streamRevision('shared')).toBe(1n);
      await a.events.removeStream('shared');
      expect(await b.events.readAll(0n, 10)).toEqual([]);
      expect(await b.events.streamRevision('shared')).toBe(0n);
    });
  });
}
