/** The storage contract, projection-store: checkpoints and documents changed together, document reads and lists. */
import { describe, expect, it } from 'vitest';
import { BEYOND_DOUBLE, put, del, failureTag, type ContractContext } from './support.ts';

export function documentCases({ open, second }: ContractContext): void {
  describe('projection-store', () => {
    it('checkpoint is 0 for an unknown projection, and get-document of a missing one is none', async () => {
      const s = await open();
      expect(await s.projections.checkpoint('never-ran')).toBe(0n);
      expect(await s.projections.getDocument({ collection: 'c', id: 'missing' })).toBeUndefined();
      expect(await s.projections.listDocuments('c', undefined, 10)).toEqual([]);
    });

    it('commit applies documents and moves the checkpoint together', async () => {
      const s = await open();
      expect(await s.projections.commit('users', 0n, 5n, [put('users', 'u1', { n: 1 }), put('users', 'u2', { n: 2 })])).toBe(true);
      expect(await s.projections.checkpoint('users')).toBe(5n);
      expect(await s.projections.getDocument({ collection: 'users', id: 'u1' })).toEqual({
        collection: 'users',
        id: 'u1',
        body: '{"n":1}',
        version: 1n,
      });
      expect((await s.projections.getDocument({ collection: 'users', id: 'u2' }))?.version).toBe(1n);
    });

    it('a stale expected checkpoint returns false and changes nothing', async () => {
      const s = await open();
      await s.projections.commit('p', 0n, 5n, [put('c', 'a', 'first')]);
      expect(await s.projections.commit('p', 0n, 7n, [put('c', 'a', 'stale'), put('c', 'b', 'new'), del('c', 'a')])).toBe(false);
      expect(await s.projections.commit('p', 4n, 9n, [put('c', 'a', 'stale')])).toBe(false);
      expect(await s.projections.commit('p', 6n, 9n, [put('c', 'a', 'stale')])).toBe(false);
      expect(await s.projections.checkpoint('p')).toBe(5n);
      expect(await s.projections.getDocument({ collection: 'c', id: 'a' })).toEqual({
        collection: 'c',
        id: 'a',
        body: '"first"',
        version: 1n,
      });
      expect(await s.projections.getDocument({ collection: 'c', id: 'b' })).toBeUndefined();
      // A projection that never ran is at 0: expecting anything else is stale too.
      expect(await s.projections.commit('fresh', 3n, 4n, [put('c', 'z', 1)])).toBe(false);
      expect(await s.projections.getDocument({ collection: 'c', id: 'z' })).toBeUndefined();
    });

    it('next < expected is invalid: checkpoints never move back', async () => {
      const s = await open();
      await s.projections.commit('p', 0n, 5n, []);
      expect(await failureTag(() => s.projections.commit('p', 5n, 3n, [put('c', 'a', 1)]))).toBe('invalid');
      expect(await s.projections.checkpoint('p')).toBe(5n);
      expect(await s.projections.getDocument({ collection: 'c', id: 'a' })).toBeUndefined();
    });

    it('next = expected changes documents as of the checkpoint, and only while it holds', async () => {
      const s = await open();
      await s.projections.commit('p', 0n, 5n, [put('c', 'a', 1)]);
      expect(await s.projections.commit('p', 5n, 5n, [put('c', 'a', 2), del('c', 'b')])).toBe(true);
      expect(await s.projections.checkpoint('p')).toBe(5n);
      expect(await s.projections.getDocument({ collection: 'c', id: 'a' })).toMatchObject({ body: '2', version: 2n });
      expect(await s.projections.commit('p', 4n, 4n, [put('c', 'a', 3)])).toBe(false);
      expect(await s.projections.commit('new', 0n, 0n, [put('c', 'n', 1)])).toBe(true);
      expect(await s.projections.getDocument({ collection: 'c', id: 'n' })).toMatchObject({ body: '1' });
    });

    it('version counts the writes of a document; delete removes it', async () => {
      const s = await open();
      await s.projections.commit('p', 0n, 1n, [put('c', 'a', 'v1'), put('c', 'b', 'b1')]);
      await s.projections.commit('p', 1n, 2n, [put('c', 'a', 'v2')]);
      await s.projections.commit('p', 2n, 3n, [put('c', 'a', 'v3'), del('c', 'b'), del('c', 'never-existed')]);
      expect(await s.projections.getDocument({ collection: 'c', id: 'a' })).toEqual({
        collection: 'c',
        id: 'a',
        body: '"v3"',
        version: 3n,
      });
      expect(await s.projections.getDocument({ collection: 'c', id: 'b' })).toBeUndefined();
      // Two puts of one document in one commit are two writes; the last body wins.
      await s.projections.commit('p', 3n, 4n, [put('c', 'a', 'v4'), put('c', 'a', 'v5')]);
      expect(await s.projections.getDocument({ collection: 'c', id: 'a' })).toMatchObject({ body: '"v5"', version: 5n });
    });

    it('an empty change list still moves the checkpoint', async () => {
      const s = await open();
      expect(await s.projections.commit('p', 0n, 10n, [])).toBe(true);
      expect(await s.projections.commit('p', 10n, 11n, [])).toBe(true);
      expect(await s.projections.checkpoint('p')).toBe(11n);
    });

    it('projections have independent checkpoints; checkpoints keep full u64 precision', async () => {
      const s = await open();
      await s.projections.commit('a', 0n, 3n, []);
      await s.projections.commit('b', 0n, BEYOND_DOUBLE, []);
      expect(await s.projections.checkpoint('a')).toBe(3n);
      expect(await s.projections.checkpoint('b')).toBe(BEYOND_DOUBLE);
      expect(await s.projections.commit('b', BEYOND_DOUBLE - 1n, BEYOND_DOUBLE + 1n, [])).toBe(false);
      expect(await s.projections.commit('b', BEYOND_DOUBLE, BEYOND_DOUBLE + 1n, [])).toBe(true);
      expect(await s.projections.checkpoint('b')).toBe(BEYOND_DOUBLE + 1n);
    });

    it('an invalid change makes the whole commit invalid and changes nothing', async () => {
      const s = await open();
      await s.projections.commit('p', 0n, 1n, [put('c', 'a', 'kept')]);
      expect(await failureTag(() => s.projections.commit('p', 1n, 2n, [put('c', 'a', 'lost'), put('c', '', 'x')]))).toBe('invalid');
      expect(await failureTag(() => s.projections.commit('p', 1n, 2n, [del('', 'a')]))).toBe('invalid');
      expect(await failureTag(() => s.projections.commit('', 0n, 1n, []))).toBe('invalid');
      expect(await s.projections.checkpoint('p')).toBe(1n);
      expect(await s.projections.getDocument({ collection: 'c', id: 'a' })).toMatchObject({ body: '"kept"', version: 1n });
    });

    it('of two racing commits from the same checkpoint exactly one wins', async () => {
      const s = await open();
      const other = (await second()) ?? s;
      const results = await Promise.all([
        (async () => s.projections.commit('p', 0n, 1n, [put('c', 'a', 'first')]))(),
        (async () => other.projections.commit('p', 0n, 2n, [put('c', 'a', 'second')]))(),
      ]);
      expect(results.filter(Boolean)).toHaveLength(1);
      const winner = results[0] ? { checkpoint: 1n, body: '"first"' } : { checkpoint: 2n, body: '"second"' };
      expect(await s.projections.checkpoint('p')).toBe(winner.checkpoint);
      expect(await s.projections.getDocument({ collection: 'c', id: 'a' })).toMatchObject({ body: winner.body, version: 1n });
    });

    it('list-documents returns one collection in id order, paged after an id', async () => {
      const s = await open();
      const ids = ['b', 'a', 'd', 'c', 'e', 'a1'];
      await s.projections.commit('p', 0n, 1n, [...ids.map((id) => put('users', id, { id })), put('orders', 'a0', {}), put('users2', 'a', {})]);
      const all = await s.projections.listDocuments('users', undefined, 1000);
      expect(all.map((d) => d.id)).toEqual(['a', 'a1', 'b', 'c', 'd', 'e']);
      expect(all.every((d) => d.collection === 'users' && d.version === 1n)).toBe(true);
      expect(all[0]).toEqual({ collection: 'users', id: 'a', body: '{"id":"a"}', version: 1n });

      const paged: string[] = [];
      let after: string | undefined;
      for (;;) {
        const page = await s.projections.listDocuments('users', after, 4);
        if (page.length === 0) break;
        paged.push(...page.map((d) => d.id));
        after = page.at(-1)!.id;
      }
      expect(paged).toEqual(['a', 'a1', 'b', 'c', 'd', 'e']);
      expect((await s.projections.listDocuments('users', 'b', 2)).map((d) => d.id)).toEqual(['c', 'd']);
      // after-id need not exist
      expect((await s.projections.listDocuments('users', 'bb', 1000)).map((d) => d.id)).toEqual(['c', 'd', 'e']);
      expect(await s.projections.listDocuments('users', 'e', 10)).toEqual([]);
      expect(await s.projections.listDocuments('empty', undefined, 10)).toEqual([]);
      for (const limit of [0, 1001, 2.5]) {
        expect(await failureTag(() => s.projections.listDocuments('users', undefined, limit))).toBe('invalid');
      }
    });

    it('list-documents orders ids by code point (UTF-8 bytes), beyond U+FFFF too', async () => {
      const s = await open();
      // U+FFFD sorts before U+1F600 by code point, after it by UTF-16 code unit (a surrogate pair).
      const ids = ['z\u{1F600}', 'z\uFFFD', 'z\u00E9', 'zz', 'z'];
      await s.projections.commit(
        'p',
        0n,
        1n,
        ids.map((id) => put('names', id, {})),
      );
      expect((await s.projections.listDocuments('names', undefined, 10)).map((d) => d.id)).toEqual(['z', 'zz', 'z\u00E9', 'z\uFFFD', 'z\u{1F600}']);
      expect((await s.projections.listDocuments('names', 'z\uFFFD', 10)).map((d) => d.id)).toEqual(['z\u{1F600}']);
    });
  });
}
