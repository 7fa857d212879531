/**
 * The storage conformance suite. Every backend (SQLite, PostgreSQL, Redis, files) runs this one
 * suite, so the semantics the WIT documents (wit/event-store.wit, projection-store.wit,
 * key-value.wit) are pinned once and cannot drift between backends.
 *
 * `factory()` must return a backend over EMPTY storage (a fresh file/database, or one it has
 * reset). `openSecond()`, when given, opens another backend over the same storage as the most
 * recent `factory()` result (another connection, as another host process would have), so the
 * concurrency tests race across connections. The suite closes everything it opened.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { StorageFailure, type PlatformError } from '../../host/storage/errors.ts';
import type { DocumentChange, ExpectedRevision, NewEvent, RecordedEvent, StorageBackend } from '../../host/storage/types.ts';
import { removeStreamContract } from './remove-stream-contract.ts';

export interface StorageContractOptions {
  /** Another backend over the storage of the latest factory() result. */
  openSecond?: () => Promise<StorageBackend>;
  /** Timeout for the concurrency test (network backends need more). */
  concurrencyTimeoutMs?: number;
}

const U64_MAX = 2n ** 64n - 1n;
/** Above 2^53: a value that a JS number would silently round. */
const BEYOND_DOUBLE = 2n ** 53n + 1n;

const any: ExpectedRevision = { tag: 'any' };
const noStream: ExpectedRevision = { tag: 'no-stream' };
const streamExists: ExpectedRevision = { tag: 'stream-exists' };
const exact = (val: bigint): ExpectedRevision => ({ tag: 'exact', val });

function event(eventType: string, payload: unknown = {}, metadata: unknown = {}): NewEvent {
  return { eventType, payload: JSON.stringify(payload), metadata: JSON.stringify(metadata) };
}

const put = (collection: string, id: string, body: unknown): DocumentChange => ({
  tag: 'put',
  val: { collection, id, body: JSON.stringify(body) },
});
const del = (collection: string, id: string): DocumentChange => ({ tag: 'delete', val: { collection, id } });

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
/** Yields to other tasks, so concurrent writers interleave even on a synchronous backend. */
const yieldTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Runs `call` (sync or async) and returns the platform-error it fails with. */
async function failure(call: () => unknown): Promise<PlatformError> {
  let result: unknown;
  try {
    result = await call();
  } catch (error) {
    expect(error).toBeInstanceOf(StorageFailure);
    return (error as StorageFailure).payload;
  }
  throw new Error(`expected a StorageFailure, got ${String(result)}`);
}

async function failureTag(call: () => unknown): Promise<PlatformError['tag']> {
  return (await failure(call)).tag;
}

function isConflict(error: unknown): boolean {
  return error instanceof StorageFailure && error.payload.tag === 'conflict';
}

const sequences = (events: RecordedEvent[]) => events.map((e) => e.sequence);
const revisions = (events: RecordedEvent[]) => events.map((e) => e.revision);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => BigInt(from + i));

export function runStorageContract(name: string, factory: () => Promise<StorageBackend>, options: StorageContractOptions = {}): void {
  describe(`storage contract: ${name}`, () => {
    const opened: StorageBackend[] = [];

    async function open(): Promise<StorageBackend> {
      const backend = await factory();
      opened.push(backend);
      return backend;
    }

    async function second(): Promise<StorageBackend | undefined> {
      if (options.openSecond === undefined) return undefined;
      const backend = await options.openSecond();
      opened.push(backend);
      return backend;
    }

    afterEach(async () => {
      for (const backend of opened.splice(0).reverse()) await backend.close();
    });

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

    removeStreamContract(open, second);

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
    });

    describe('key-value', () => {
      it('get of a missing key is none; set then get; set replaces; namespaces are separate', async () => {
        const s = await open();
        expect(await s.keyValue.get('ns', 'k')).toBeUndefined();
        await s.keyValue.set('ns', 'k', 'v1', undefined);
        expect(await s.keyValue.get('ns', 'k')).toBe('v1');
        await s.keyValue.set('ns', 'k', 'v2', undefined);
        expect(await s.keyValue.get('ns', 'k')).toBe('v2');
        expect(await s.keyValue.get('other', 'k')).toBeUndefined();
        await s.keyValue.set('other', 'k', '', undefined);
        expect(await s.keyValue.get('other', 'k')).toBe('');
        expect(await s.keyValue.get('ns', 'k')).toBe('v2');
      });

      it('an entry past its ttl is absent to get, take, delete and increment', async () => {
        const s = await open();
        await s.keyValue.set('ns', 'get', 'v', 60n);
        await s.keyValue.set('ns', 'take', 'v', 60n);
        await s.keyValue.set('ns', 'delete', 'v', 60n);
        await s.keyValue.set('ns', 'incr', '41', 60n);
        expect(await s.keyValue.get('ns', 'get')).toBe('v');
        await sleep(150);
        expect(await s.keyValue.get('ns', 'get')).toBeUndefined();
        expect(await s.keyValue.take('ns', 'take')).toBeUndefined();
        expect(await s.keyValue.delete('ns', 'delete')).toBe(false);
        // Expired counts as absent, i.e. 0.
        expect(await s.keyValue.increment('ns', 'incr', 1n, 60_000n)).toBe(1n);
      });

      it('set without a ttl never expires and replaces an expiring entry', async () => {
        const s = await open();
        await s.keyValue.set('ns', 'k', 'temp', 50n);
        await s.keyValue.set('ns', 'k', 'forever', undefined);
        await s.keyValue.set('ns', 'j', 'forever', undefined);
        await sleep(120);
        expect(await s.keyValue.get('ns', 'k')).toBe('forever');
        expect(await s.keyValue.get('ns', 'j')).toBe('forever');
      });

      it('set with a ttl replaces a permanent entry with an expiring one', async () => {
        const s = await open();
        await s.keyValue.set('ns', 'k', 'forever', undefined);
        await s.keyValue.set('ns', 'k', 'temp', 50n);
        expect(await s.keyValue.get('ns', 'k')).toBe('temp');
        await sleep(120);
        expect(await s.keyValue.get('ns', 'k')).toBeUndefined();
      });

      it('take returns the value once and removes it', async () => {
        const s = await open();
        expect(await s.keyValue.take('ns', 'k')).toBeUndefined();
        await s.keyValue.set('ns', 'k', 'code-123', 60_000n);
        expect(await s.keyValue.take('ns', 'k')).toBe('code-123');
        expect(await s.keyValue.take('ns', 'k')).toBeUndefined();
        expect(await s.keyValue.get('ns', 'k')).toBeUndefined();
      });

      it('of many concurrent takes exactly one gets the value', async () => {
        const s = await open();
        const other = (await second()) ?? s;
        await s.keyValue.set('ns', 'once', 'secret', undefined);
        const taken = await Promise.all(Array.from({ length: 10 }, (_, i) => (async () => (i % 2 ? other : s).keyValue.take('ns', 'once'))()));
        expect(taken.filter((v) => v !== undefined)).toEqual(['secret']);
      });

      it('increment: absent counts as 0, returns the new value, readable by get', async () => {
        const s = await open();
        expect(await s.keyValue.increment('rate', 'ip', 1n, 60_000n)).toBe(1n);
        expect(await s.keyValue.increment('rate', 'ip', 1n, 60_000n)).toBe(2n);
        expect(await s.keyValue.increment('rate', 'ip', 10n, 60_000n)).toBe(12n);
        expect(await s.keyValue.increment('rate', 'ip', -20n, 60_000n)).toBe(-8n);
        expect(await s.keyValue.increment('rate', 'ip', 0n, 60_000n)).toBe(-8n);
        expect(await s.keyValue.get('rate', 'ip')).toBe('-8');
        expect(await s.keyValue.increment('rate', 'new', -3n, 60_000n)).toBe(-3n);
      });

      it('increment keeps full s64 precision', async () => {
        const s = await open();
        expect(await s.keyValue.increment('ns', 'k', BEYOND_DOUBLE, 60_000n)).toBe(BEYOND_DOUBLE);
        expect(await s.keyValue.increment('ns', 'k', 2n, 60_000n)).toBe(BEYOND_DOUBLE + 2n);
        expect(await s.keyValue.get('ns', 'k')).toBe((BEYOND_DOUBLE + 2n).toString());
        await s.keyValue.set('ns', 'set', '9007199254740993', undefined);
        expect(await s.keyValue.increment('ns', 'set', 1n, 60_000n)).toBe(9007199254740994n);
      });

      it('increment counts an entry set with set(), and keeps it permanent', async () => {
        const s = await open();
        await s.keyValue.set('ns', 'k', '5', undefined);
        expect(await s.keyValue.increment('ns', 'k', 2n, 50n)).toBe(7n);
        await sleep(120);
        expect(await s.keyValue.get('ns', 'k')).toBe('7');
      });

      it('a new counter expires after its ttl; increments keep the original expiry', async () => {
        const s = await open();
        expect(await s.keyValue.increment('ns', 'window', 1n, 150n)).toBe(1n);
        await sleep(40);
        // A long ttl here must not extend the window.
        expect(await s.keyValue.increment('ns', 'window', 1n, 60_000n)).toBe(2n);
        expect(await s.keyValue.get('ns', 'window')).toBe('2');
        await sleep(200);
        expect(await s.keyValue.get('ns', 'window')).toBeUndefined();
        // The next window starts from 0 with its own ttl.
        expect(await s.keyValue.increment('ns', 'window', 1n, 60_000n)).toBe(1n);
      });

      it('increment of a non-integer value or past s64 is invalid and leaves the value', async () => {
        const s = await open();
        await s.keyValue.set('ns', 'text', 'abc', undefined);
        expect(await failureTag(() => s.keyValue.increment('ns', 'text', 1n, 60_000n))).toBe('invalid');
        expect(await s.keyValue.get('ns', 'text')).toBe('abc');
        const max = 2n ** 63n - 1n;
        expect(await s.keyValue.increment('ns', 'big', max, 60_000n)).toBe(max);
        expect(await failureTag(() => s.keyValue.increment('ns', 'big', 1n, 60_000n))).toBe('invalid');
        expect(await s.keyValue.get('ns', 'big')).toBe(max.toString());
      });

      it('delete reports whether an entry existed', async () => {
        const s = await open();
        expect(await s.keyValue.delete('ns', 'k')).toBe(false);
        await s.keyValue.set('ns', 'k', 'v', undefined);
        expect(await s.keyValue.delete('ns', 'k')).toBe(true);
        expect(await s.keyValue.delete('ns', 'k')).toBe(false);
        expect(await s.keyValue.get('ns', 'k')).toBeUndefined();
      });

      it('empty namespaces or keys are invalid', async () => {
        const s = await open();
        expect(await failureTag(() => s.keyValue.get('', 'k'))).toBe('invalid');
        expect(await failureTag(() => s.keyValue.set('ns', '', 'v', undefined))).toBe('invalid');
        expect(await failureTag(() => s.keyValue.take('', ''))).toBe('invalid');
        expect(await failureTag(() => s.keyValue.increment('ns', '', 1n, 1000n))).toBe('invalid');
        expect(await failureTag(() => s.keyValue.delete('', 'k'))).toBe('invalid');
      });
    });

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

      it.runIf(options.openSecond !== undefined)('a second backend on the same storage sees the same data', async () => {
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

    describe('concurrency', () => {
      it(
        '8 optimistic writers x 100 appends on one stream lose nothing and leave no gaps',
        async () => {
          const s = await open();
          const backends = [s];
          const extra = await second();
          if (extra !== undefined) backends.push(extra);
          const WRITERS = 8;
          const PER_WRITER = 100;
          let conflicts = 0;

          async function writer(w: number): Promise<void> {
            const backend = backends[w % backends.length]!;
            for (let n = 0; n < PER_WRITER; n++) {
              for (;;) {
                const revision = await backend.events.streamRevision('counter');
                // Let every other writer read the same revision before this one appends.
                await yieldTurn();
                try {
                  await backend.events.append('counter', exact(revision), [event('counter.incremented', { w, n })]);
                  break;
                } catch (error) {
                  if (!isConflict(error)) throw error;
                  conflicts++;
                  await yieldTurn();
                }
              }
            }
          }

          await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));

          const total = WRITERS * PER_WRITER;
          expect(conflicts).toBeGreaterThan(0);
          expect(await s.events.streamRevision('counter')).toBe(BigInt(total));
          expect(await s.events.headSequence()).toBe(BigInt(total));
          const all = await s.events.readAll(0n, 1000);
          expect(sequences(all)).toEqual(range(1, total));
          expect(revisions(all)).toEqual(range(1, total));
          const stream = await s.events.readStream('counter', { direction: 'forward', limit: 1000 });
          expect(stream).toEqual(all);
          // Every writer's increments are all there, each once, in that writer's order.
          const byWriter = new Map<number, number[]>();
          for (const e of all) {
            const { w, n } = JSON.parse(e.payload) as { w: number; n: number };
            byWriter.set(w, [...(byWriter.get(w) ?? []), n]);
          }
          for (let w = 0; w < WRITERS; w++) {
            expect(byWriter.get(w)).toEqual(Array.from({ length: PER_WRITER }, (_, n) => n));
          }
        },
        options.concurrencyTimeoutMs ?? 60_000,
      );
    });
  });
}
