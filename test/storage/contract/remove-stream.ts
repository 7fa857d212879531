/**
 * The storage contract for `event-store.remove-stream` (wit/event-store.wit), run by
 * runStorageContract for every backend: a removed stream's events are gone from every read, its
 * revision is 0 and `no-stream` may create it again, other streams and the sequence are
 * untouched (removed sequences are never assigned again), count-by-type keeps counting the
 * removed events, and the expected revision is checked as `append` checks it: a stream that moved
 * on since it was read is not removed.
 */
import { describe, expect, it } from 'vitest';
import { any, event, exact, failure, isConflict, noStream, streamExists, type ContractContext } from './support.ts';

export function removeStreamCases({ open, second }: ContractContext): void {
  describe('event-store remove-stream', () => {
    it('removes the stream from every read and leaves the others as they were', async () => {
      const s = await open();
      await s.events.append('keep', noStream, [event('t.a', { n: 1 })]);
      await s.events.append('gone', noStream, [event('t.a', { secret: 'x' }), event('t.b')]);
      await s.events.append('gone', { tag: 'exact', val: 2n }, [event('t.b')]);
      await s.events.append('keep', { tag: 'exact', val: 1n }, [event('t.a', { n: 2 })]);

      expect(await s.events.removeStream('gone', any)).toBe(3n);
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
      await s.events.removeStream('a', any);
      await s.events.removeStream('b', any);
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
      expect(await s.events.removeStream('claim', any)).toBe(1n);
      await expect(Promise.resolve(s.events.removeStream('claim', any))).resolves.toBe(0n);
      const [again] = await s.events.append('claim', noStream, [event('c')]);
      expect(again).toMatchObject({ revision: 1n, sequence: 2n });
      expect(await s.events.removeStream('never-written', any)).toBe(0n);
    });

    it('removes only at the expected revision; on conflict nothing is removed', async () => {
      const s = await open();
      await s.events.append('claim', noStream, [event('c.a'), event('c.b')]);
      for (const wrong of [exact(0n), exact(1n), exact(3n), noStream]) {
        expect(await failure(() => s.events.removeStream('claim', wrong))).toEqual({
          tag: 'conflict',
          val: { streamId: 'claim', expected: wrong, actual: 2n },
        });
      }
      expect(await s.events.streamRevision('claim')).toBe(2n);
      expect(await s.events.readAll(0n, 10)).toHaveLength(2);
      expect(await s.events.removeStream('claim', exact(2n))).toBe(2n);
      expect(await s.events.streamRevision('claim')).toBe(0n);
    });

    it('a missing stream: no-stream and exact(0) remove nothing, stream-exists and exact(n) conflict', async () => {
      const s = await open();
      expect(await s.events.removeStream('none', noStream)).toBe(0n);
      expect(await s.events.removeStream('none', exact(0n))).toBe(0n);
      for (const wrong of [streamExists, exact(1n)]) {
        expect(await failure(() => s.events.removeStream('none', wrong))).toEqual({
          tag: 'conflict',
          val: { streamId: 'none', expected: wrong, actual: 0n },
        });
      }
      await s.events.append('some', noStream, [event('x')]);
      expect(await s.events.removeStream('some', streamExists)).toBe(1n);
    });

    it('a truncated stream is removed at its revision (the newest kept event), not its event count', async () => {
      const s = await open();
      await s.events.append('t', noStream, [event('a'), event('b'), event('c')]);
      await s.events.truncateBefore('t', 3n);
      expect(await failure(() => s.events.removeStream('t', exact(1n)))).toMatchObject({ tag: 'conflict', val: { actual: 3n } });
      expect(await s.events.removeStream('t', exact(3n))).toBe(1n);
      expect(await s.events.streamRevision('t')).toBe(0n);
    });

    it('an append on another connection after the read keeps the stream and its new event', async () => {
      const a = await open();
      const b = (await second()) ?? a;
      await a.events.append('email', noStream, [event('claimed', { by: 'old' })]);
      const read = await a.events.streamRevision('email');
      await b.events.append('email', exact(read), [event('claimed', { by: 'new' })]);
      expect(await failure(() => a.events.removeStream('email', exact(read)))).toMatchObject({ tag: 'conflict', val: { actual: 2n } });
      const kept = await a.events.readStream('email', { direction: 'forward', limit: 10 });
      expect(kept.map((e) => JSON.parse(e.payload) as unknown)).toEqual([{ by: 'old' }, { by: 'new' }]);
    });

    it('an append and a removal racing at the same revision: exactly one wins', async () => {
      const a = await open();
      const b = (await second()) ?? a;
      for (let i = 0; i < 20; i++) {
        const stream = `race-${i}`;
        await a.events.append(stream, noStream, [event('first')]);
        const outcomes = await Promise.allSettled([
          Promise.resolve().then(() => a.events.append(stream, exact(1n), [event('second')])),
          Promise.resolve().then(() => b.events.removeStream(stream, exact(1n))),
        ]);
        const [appended, removed] = outcomes;
        expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
        for (const o of outcomes) if (o.status === 'rejected') expect(isConflict(o.reason)).toBe(true);
        expect(await a.events.streamRevision(stream)).toBe(appended.status === 'fulfilled' ? 2n : 0n);
        expect(removed.status === 'fulfilled').toBe(appended.status !== 'fulfilled');
      }
    });

    it('another connection sees the removal', async () => {
      const a = await open();
      const b = await second();
      if (b === undefined) return;
      await a.events.append('shared', noStream, [event('s')]);
      expect(await b.events.streamRevision('shared')).toBe(1n);
      await a.events.removeStream('shared', any);
      expect(await b.events.readAll(0n, 10)).toEqual([]);
      expect(await b.events.streamRevision('shared')).toBe(0n);
    });
  });
}
