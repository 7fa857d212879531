/** The storage contract, event-store append: revisions, sequences, times, all-or-nothing batches and argument checks. */
import { describe, expect, it } from 'vitest';
import { U64_MAX, any, noStream, streamExists, exact, event, failure, failureTag, sequences, revisions, range, type ContractContext } from './support.ts';

export function eventAppendCases({ open }: ContractContext): void {
  describe('event-store append', () => {
    it('no-stream creates a stream at revision 1 with global sequence 1 and a store-assigned time', async () => {
      const s = await open();
      const before = Date.now();
      const recorded = await s.events.append('user-1', noStream, [event('user.created', { email: 'a@b.c' }, { by: 'test' })]);
      expect(recorded).toEqual([
        {
          sequence: 1n,
          streamId: 'user-1',
          revision: 1n,
          eventType: 'user.created',
          payload: '{"email":"a@b.c"}',
          metadata: '{"by":"test"}',
          recordedAt: expect.any(BigInt),
        },
      ]);
      // Remote stores use their own clock: allow a minute of skew, but it must be epoch ms.
      const at = Number(recorded[0]!.recordedAt);
      expect(Math.abs(at - before)).toBeLessThan(60_000);
      expect(await s.events.streamRevision('user-1')).toBe(1n);
    });

    it('any appends to a missing stream and to an existing one', async () => {
      const s = await open();
      expect(revisions(await s.events.append('s', any, [event('a')]))).toEqual([1n]);
      expect(revisions(await s.events.append('s', any, [event('b'), event('c')]))).toEqual([2n, 3n]);
    });

    it('exact(0) means "no stream yet" and conflicts once the stream exists', async () => {
      const s = await open();
      expect(revisions(await s.events.append('s', exact(0n), [event('a')]))).toEqual([1n]);
      expect(await failure(() => s.events.append('s', exact(0n), [event('b')]))).toEqual({
        tag: 'conflict',
        val: { streamId: 's', expected: exact(0n), actual: 1n },
      });
    });

    it('exact(n) matches only a stream at revision n', async () => {
      const s = await open();
      await s.events.append('s', noStream, [event('a'), event('b'), event('c')]);
      for (const wrong of [1n, 2n, 4n, 100n, U64_MAX]) {
        expect(await failure(() => s.events.append('s', exact(wrong), [event('x')]))).toEqual({
          tag: 'conflict',
          val: { streamId: 's', expected: exact(wrong), actual: 3n },
        });
      }
      expect(revisions(await s.events.append('s', exact(3n), [event('d')]))).toEqual([4n]);
    });

    it('exact(n) on a missing stream conflicts with actual 0', async () => {
      const s = await open();
      expect(await failure(() => s.events.append('s', exact(1n), [event('a')]))).toEqual({
        tag: 'conflict',
        val: { streamId: 's', expected: exact(1n), actual: 0n },
      });
    });

    it('no-stream conflicts on an existing stream, reporting its revision', async () => {
      const s = await open();
      await s.events.append('email:a@b.c', noStream, [event('claimed'), event('confirmed')]);
      expect(await failure(() => s.events.append('email:a@b.c', noStream, [event('claimed')]))).toEqual({
        tag: 'conflict',
        val: { streamId: 'email:a@b.c', expected: noStream, actual: 2n },
      });
    });

    it('stream-exists conflicts on a missing stream (actual 0) and appends to an existing one', async () => {
      const s = await open();
      expect(await failure(() => s.events.append('s', streamExists, [event('a')]))).toEqual({
        tag: 'conflict',
        val: { streamId: 's', expected: streamExists, actual: 0n },
      });
      await s.events.append('s', noStream, [event('a')]);
      expect(revisions(await s.events.append('s', streamExists, [event('b')]))).toEqual([2n]);
    });

    it('writes nothing on conflict, and the next append continues without a sequence gap', async () => {
      const s = await open();
      await s.events.append('a', noStream, [event('t.one')]);
      await s.events.append('b', noStream, [event('t.two')]);
      const before = await s.events.readAll(0n, 1000);
      expect(await failureTag(() => s.events.append('a', exact(5n), [event('t.x'), event('t.y')]))).toBe('conflict');
      expect(await failureTag(() => s.events.append('b', noStream, [event('t.x')]))).toBe('conflict');
      expect(await failureTag(() => s.events.append('c', streamExists, [event('t.x')]))).toBe('conflict');
      expect(await s.events.readAll(0n, 1000)).toEqual(before);
      expect(await s.events.headSequence()).toBe(2n);
      expect(await s.events.streamRevision('a')).toBe(1n);
      expect(await s.events.streamRevision('c')).toBe(0n);
      expect(await s.events.countByType('t.x')).toEqual([]);
      expect(sequences(await s.events.append('c', noStream, [event('t.z')]))).toEqual([3n]);
    });

    it('a batch gets consecutive revisions and sequences, in order', async () => {
      const s = await open();
      await s.events.append('other', any, [event('x')]);
      const recorded = await s.events.append('s', noStream, [event('e1'), event('e2'), event('e3')]);
      expect(recorded.map((e) => [e.sequence, e.revision, e.eventType])).toEqual([
        [2n, 1n, 'e1'],
        [3n, 2n, 'e2'],
        [4n, 3n, 'e3'],
      ]);
      expect(await s.events.readStream('s', { direction: 'forward', limit: 10 })).toEqual(recorded);
    });

    it('an empty batch checks the expectation and writes nothing', async () => {
      const s = await open();
      expect(await s.events.append('s', noStream, [])).toEqual([]);
      expect(await s.events.append('s', any, [])).toEqual([]);
      expect(await s.events.streamRevision('s')).toBe(0n);
      expect(await s.events.headSequence()).toBe(0n);
      expect(await failure(() => s.events.append('s', streamExists, []))).toEqual({
        tag: 'conflict',
        val: { streamId: 's', expected: streamExists, actual: 0n },
      });
      await s.events.append('s', any, [event('a')]);
      expect(await s.events.append('s', exact(1n), [])).toEqual([]);
      expect(await failureTag(() => s.events.append('s', exact(0n), []))).toBe('conflict');
      expect(await s.events.headSequence()).toBe(1n);
    });

    it('global sequences are contiguous across interleaved streams; revisions are per stream', async () => {
      const s = await open();
      const order = ['a', 'b', 'a', 'c', 'b', 'a', 'c', 'c', 'b', 'a'];
      for (const stream of order) await s.events.append(stream, any, [event(`${stream}.happened`)]);
      const all = await s.events.readAll(0n, 1000);
      expect(sequences(all)).toEqual(range(1, order.length));
      expect(all.map((e) => e.streamId)).toEqual(order);
      for (const stream of ['a', 'b', 'c']) {
        const own = all.filter((e) => e.streamId === stream);
        expect(revisions(own)).toEqual(range(1, own.length));
      }
    });

    it('payload and metadata round-trip byte for byte', async () => {
      const s = await open();
      const texts = ['', '{}', '"é漢字🙂"', JSON.stringify({ big: 'x'.repeat(200_000) }), '{"a":[1,2,{"b":null}]}\n'];
      for (const [i, text] of texts.entries()) {
        await s.events.append('s', any, [{ eventType: `t${i}`, payload: text, metadata: text }]);
      }
      const read = await s.events.readStream('s', { direction: 'forward', limit: 100 });
      expect(read.map((e) => e.payload)).toEqual(texts);
      expect(read.map((e) => e.metadata)).toEqual(texts);
    });

    it('stream ids are exact and case-sensitive', async () => {
      const s = await open();
      await s.events.append('Stream', noStream, [event('a')]);
      await s.events.append('stream', noStream, [event('a')]);
      await s.events.append('stream ', noStream, [event('a')]);
      expect(await s.events.streamRevision('Stream')).toBe(1n);
      expect(await s.events.streamRevision('stream')).toBe(1n);
      expect(await s.events.streamRevision('stream%')).toBe(0n);
    });

    it('rejects an empty stream id or event type as invalid, writing nothing', async () => {
      const s = await open();
      expect(await failureTag(() => s.events.append('', any, [event('a')]))).toBe('invalid');
      expect(await failureTag(() => s.events.append('s', any, [event('a'), event('')]))).toBe('invalid');
      expect(await failureTag(() => s.events.append('x'.repeat(513), any, [event('a')]))).toBe('invalid');
      expect(await failureTag(() => s.events.streamRevision(''))).toBe('invalid');
      expect(await failureTag(() => s.events.readStream('', { direction: 'forward', limit: 1 }))).toBe('invalid');
      expect(await s.events.headSequence()).toBe(0n);
      expect(await s.events.streamRevision('s')).toBe(0n);
    });
  });
}
