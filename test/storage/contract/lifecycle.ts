/** The storage contract, lifecycle: reset, and a second backend over the same storage. */
import { describe, expect, it } from 'vitest';
import { noStream, exact, event, put, sequences, type ContractContext } from './support.ts';

export function lifecycleCases({ open, second, options }: ContractContext): void {
  describe('lifecycle', () => {
    it('reset() clears events, projections and key-value; sequences start at 1 again', async () => {
      const s = await open();
      await s.events.append('s', noStream, [event('a'), event('b')]);
      await s.projections.commit('p', 0n, 2n, [put('c', 'a', 1)]);
      await s.keyValue.set('ns', 'k', 'v', undefined);
      await s.reset();
      expect(await s.events.headSequence()).toBe(0n);
      expect(await s.events.streamRevision('s')).toBe(0n);
      expect(await s.events.readAll(0n, 10)).toEqual([]);
      expect(await s.events.countByType('')).toEqual([]);
      expect(await s.projections.checkpoint('p')).toBe(0n);
      expect(await s.projections.getDocument({ collection: 'c', id: 'a' })).toBeUndefined();
      expect(await s.keyValue.get('ns', 'k')).toBeUndefined();
      const [first] = await s.events.append('s', noStream, [event('again')]);
      expect(first).toMatchObject({ sequence: 1n, revision: 1n });
    });

    // Only where there is a second connection to open: the memory stores live in one object, and a
    // case that cannot apply is left out rather than reported skipped (a skip under CI means a missing tool).
    if (options.openSecond === undefined) return;
    it('a second backend on the same storage sees the same data', async () => {
      const a = await open();
      const b = (await second())!;
      await a.events.append('s', noStream, [event('a')]);
      expect(await b.events.streamRevision('s')).toBe(1n);
      await b.events.append('s', exact(1n), [event('b')]);
      expect(sequences(await a.events.readAll(0n, 10))).toEqual([1n, 2n]);
      await b.keyValue.set('ns', 'k', 'v', undefined);
      expect(await a.keyValue.get('ns', 'k')).toBe('v');
    });
  });
}
