/**
 * The standalone file store (src/platform/standalone/, the storage of the component under
 * `wasmtime serve`): the shared storage contract on a node:fs implementation of its FileSystem
 * port (same link/rename semantics as wasi:filesystem), with a second store instance on the same
 * directory for cross-instance races; then what only files have: racing worker threads, crash
 * leftovers (temporary files, a commit whose index was never written), stale locks.
 * The real wasi:filesystem path is proven end to end in test/e2e/wasmtime.e2e.test.ts.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { StorageFailure } from '../../host/storage/errors.ts';
import type { StorageBackend } from '../../host/storage/types.ts';
import { FileStoreFailure } from '../../src/platform/standalone/failure.ts';
import { openFileStorage, type FileStorage } from '../../src/platform/standalone/file-storage.ts';
import { padded, hashed } from '../../src/platform/standalone/names.ts';
import type { DocumentChange } from '../../src/platform/ports.ts';
import { createMemoryPlatform } from '../../src/platform/testing/memory-platform.ts';
import { seededRandom } from '../../src/platform/testing/seeded-random.ts';
import { runStorageContract } from './contract.ts';
import { nodeFileSystem } from '../../scripts/wasmtime/node-file-system.ts';
import { expectContiguousRace, raceWorkers } from './race-workers.ts';

const root = mkdtempSync(join(tmpdir(), 'storage-files-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let counter = 0;
const freshDir = () => join(root, `store-${++counter}`);

/** The file store seen through the host's StorageBackend contract (its failures as StorageFailure). */
function asBackend(storage: FileStorage): StorageBackend {
  const wrap = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(obj, name) {
        const value = (obj as Record<string | symbol, unknown>)[name];
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          try {
            return (value as (...a: unknown[]) => unknown).apply(obj, args);
          } catch (error) {
            if (error instanceof FileStoreFailure) throw new StorageFailure(error.payload);
            throw error;
          }
        };
      },
    });
  return {
    name: 'files',
    events: wrap(storage.events),
    projections: wrap(storage.projections),
    keyValue: wrap(storage.keyValue),
    // The file store offers no lease (its per-sequence files arbitrate); the host never runs on it.
    leases: {
      ttlMs: 0,
      acquire: (streamId) => ({ token: 1n, append: (expected, list) => storage.events.append(streamId, expected, list), release: () => {}, renew: () => true }),
    },
    reset: () => storage.reset(),
    close: () => undefined,
  };
}

let currentDir = '';
runStorageContract(
  'files (standalone store on node:fs)',
  async () => {
    currentDir = freshDir();
    return asBackend(openFileStorage(nodeFileSystem(currentDir)));
  },
  { openSecond: async () => asBackend(openFileStorage(nodeFileSystem(currentDir))) },
);

const event = (eventType: string, payload = '{}') => ({ eventType, payload, metadata: '{}' });
const put = (collection: string, id: string, body: unknown) => ({ tag: 'put' as const, val: { collection, id, body: JSON.stringify(body) } });

describe('file store specifics', () => {
  it('appends from 4 threads racing on one directory stay contiguous (real cross-thread races)', async () => {
    const dir = freshDir();
    const WORKERS = 4;
    const COUNT = 100;
    const results = await raceWorkers(new URL('./files-writer.worker.ts', import.meta.url), WORKERS, { dir, stream: 'counter', count: COUNT });
    const storage = openFileStorage(nodeFileSystem(dir));
    expectContiguousRace(storage.events.readAll(0n, 1000), WORKERS, COUNT);
    expect(results.every((r) => typeof r.conflicts === 'number')).toBe(true);
    // No temporary file survives a clean run.
    expect(readdirSync(join(dir, 'tmp'))).toEqual([]);
  }, 120_000);

  it('projection commits from 4 threads racing on one directory: every commit counted once, versions exact', async () => {
    const dir = freshDir();
    const WORKERS = 4;
    const COUNT = 100;
    await raceWorkers(new URL('./files-writer.worker.ts', import.meta.url), WORKERS, { dir, stream: 'counter', count: COUNT, kind: 'projection' });
    const storage = openFileStorage(nodeFileSystem(dir));
    expect(storage.projections.checkpoint('counter')).toBe(BigInt(WORKERS * COUNT));
    expect(storage.projections.getDocument({ collection: 'views', id: 'counter' })).toMatchObject({ body: String(WORKERS * COUNT), version: BigInt(WORKERS * COUNT) });
    const writers = storage.projections.listDocuments('writers', undefined, 10);
    expect(writers.map((d) => [d.id, d.body, d.version])).toEqual(Array.from({ length: WORKERS }, (_, w) => [`w${w}`, String(COUNT - 1), BigInt(COUNT)]));
  }, 120_000);

  it('survives SIGKILL at random points: whole batches, contiguous sequences, every acknowledged append', async () => {
    for (let round = 0; round < 4; round++) {
      const dir = freshDir();
      const child = spawn(process.execPath, [join(import.meta.dirname, 'files-crash.worker.ts'), dir], { stdio: ['ignore', 'pipe', 'inherit'] });
      let acknowledged = -1;
      child.stdout.on('data', (chunk: Buffer) => {
        const lines = chunk.toString().trim().split('\n');
        acknowledged = Math.max(acknowledged, Number(lines.at(-1)));
      });
      const exited = new Promise((resolve) => child.once('exit', resolve));
      // Let it run a little (a different amount each round), then kill -9 wherever it is.
      while (acknowledged < 20 + round * 15) await new Promise((resolve) => setTimeout(resolve, 5));
      child.kill('SIGKILL');
      await exited;

      const storage = openFileStorage(nodeFileSystem(dir));
      const all = storage.events.readAll(0n, 1000);
      expect(all.map((e) => e.sequence)).toEqual(all.map((_, i) => BigInt(i + 1)));
      const batches = new Map<number, number[]>();
      for (const e of all) {
        const { n, i } = JSON.parse(e.payload) as { n: number; i: number };
        batches.set(n, [...(batches.get(n) ?? []), i]);
      }
      const ns = [...batches.keys()];
      expect(ns).toEqual(ns.map((_, i) => i)); // batches in order, none missing
      expect(ns.length).toBeGreaterThanOrEqual(acknowledged + 1); // every acknowledged one (the last may be extra)
      for (const [n, indexes] of batches) expect(indexes).toEqual(Array.from({ length: 1 + (n % 4) }, (_, i) => i)); // whole
      for (const stream of ['s0', 's1', 's2']) {
        const own = all.filter((e) => e.streamId === stream);
        expect(storage.events.streamRevision(stream)).toBe(BigInt(own.length));
        expect(storage.events.readStream(stream, { direction: 'forward', limit: 1000 })).toEqual(own);
      }
      // The projection: one put of `last` per iteration, its checkpoint at that iteration's last event.
      const last = storage.projections.getDocument({ collection: 'c', id: 'last' });
      const folded = Number(last?.body);
      expect(folded).toBeGreaterThanOrEqual(acknowledged);
      expect(last?.version).toBe(BigInt(folded + 1));
      const checkpoint = storage.projections.checkpoint('p');
      expect(checkpoint).toBe(all.findLast((e) => (JSON.parse(e.payload) as { n: number }).n === folded)?.sequence);
      expect(storage.projections.commit('p', checkpoint, checkpoint + 1n, [put('c', 'last', 'after')])).toBe(true);
      // The store goes on: the next append continues the chain.
      const [next] = storage.events.append('s0', { tag: 'any' }, [event('after.crash')]);
      expect(next?.sequence).toBe(BigInt(all.length + 1));
      expect(storage.keyValue.increment('ns', 'k', 1n, 600_000n)).toBeGreaterThanOrEqual(BigInt(acknowledged + 2));
    }
  }, 120_000);

  it('a commit whose index was never written (killed between the two) is indexed by the next caller', () => {
    const dir = freshDir();
    const storage = openFileStorage(nodeFileSystem(dir));
    storage.events.append('s', { tag: 'no-stream' }, [event('a')]);
    // What a writer killed right after its link(2) leaves: the commit file and nothing else.
    const commit = { v: 1, stream: 's', revision: '2', recordedAt: String(Date.now()), events: [{ type: 'b', payload: '{}', metadata: '{}' }] };
    writeFileSync(join(dir, 'events', 'log', padded(2n)), JSON.stringify(commit));
    const again = openFileStorage(nodeFileSystem(dir));
    expect(again.events.streamRevision('s')).toBe(2n);
    expect(again.events.readStream('s', { direction: 'backward', limit: 1 })[0]).toMatchObject({ sequence: 2n, revision: 2n, eventType: 'b' });
    expect(() => again.events.append('s', { tag: 'exact', val: 1n }, [event('c')])).toThrow(FileStoreFailure);
    expect(again.events.append('s', { tag: 'exact', val: 2n }, [event('c')])[0]).toMatchObject({ sequence: 3n, revision: 3n });
    expect(readdirSync(join(dir, 'events', 'streams', hashed('s'))).sort()).toEqual([padded(1n), padded(2n), padded(3n), 'tip']);
  });

  it('a projection commit whose index was never written (killed between the two) is indexed by the next caller', () => {
    const dir = freshDir();
    const storage = openFileStorage(nodeFileSystem(dir));
    storage.projections.commit('p', 0n, 1n, [put('c', 'a', 'v1'), put('c', 'b', 'b1')]);
    // What a writer killed right after its link(2) leaves: the commit file and nothing else.
    const commit = { projection: 'p', next: '2', changes: [put('c', 'a', 'v2'), { tag: 'delete', val: { collection: 'c', id: 'b' } }] };
    writeFileSync(join(dir, 'projections', 'log', padded(2n)), JSON.stringify(commit));
    const again = openFileStorage(nodeFileSystem(dir));
    expect(again.projections.getDocument({ collection: 'c', id: 'a' })).toMatchObject({ body: '"v2"', version: 2n });
    expect(again.projections.getDocument({ collection: 'c', id: 'b' })).toBeUndefined();
    expect(again.projections.commit('p', 1n, 3n, [])).toBe(false);
    expect(again.projections.commit('p', 2n, 3n, [put('c', 'a', 'v3')])).toBe(true);
    // The first store instance, which never saw commit 2 being indexed, agrees.
    expect(storage.projections.getDocument({ collection: 'c', id: 'a' })).toMatchObject({ body: '"v3"', version: 3n });
    expect(storage.projections.checkpoint('p')).toBe(3n);
  });

  it('an instance that remembers a document sees every later change to it, also from far behind', () => {
    const dir = freshDir();
    const reader = openFileStorage(nodeFileSystem(dir));
    const writer = openFileStorage(nodeFileSystem(dir));
    writer.projections.commit('p', 0n, 1n, [put('c', 'a', 'a1'), put('c', 'b', 'b1')]);
    expect(reader.projections.getDocument({ collection: 'c', id: 'a' })).toMatchObject({ body: '"a1"', version: 1n });
    expect(reader.projections.getDocument({ collection: 'c', id: 'b' })).toMatchObject({ body: '"b1"', version: 1n });
    // A few commits behind (read one by one); then far behind, past the follow limit of 64 commits,
    // so the reader starts again from the head hint: once with the change after the jump, once with
    // it in the last commit read before the jump and the hint exactly at the end (commit 248).
    for (const [behind, changedAt] of [
      [3, 2],
      [150, 100],
      [94, 64],
    ] as const) {
      const at = writer.projections.checkpoint('p');
      for (let i = 1; i <= behind; i++) {
        const changes = i === changedAt ? [put('c', 'a', `a${at}`), put('c', 'z', i)] : [put('c', 'z', i)];
        writer.projections.commit('p', at + BigInt(i - 1), at + BigInt(i), changes);
      }
      const a = writer.projections.getDocument({ collection: 'c', id: 'a' });
      expect(reader.projections.getDocument({ collection: 'c', id: 'a' })).toEqual(a);
      expect(a?.body).toBe(`"a${at}"`);
      expect(reader.projections.getDocument({ collection: 'c', id: 'b' })).toMatchObject({ body: '"b1"', version: 1n });
      expect(reader.projections.checkpoint('p')).toBe(at + BigInt(behind));
    }
    expect(reader.projections.getDocument({ collection: 'c', id: 'a' })?.version).toBe(4n);
  });

  it('three instances on one directory agree with the in-memory model under random commits, reads and long lags', () => {
    const dir = freshDir();
    const stores = [0, 1, 2].map(() => openFileStorage(nodeFileSystem(dir)).projections);
    const model = createMemoryPlatform().projections;
    const next = seededRandom(0xf11e);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
    const ids = ['a', 'b', 'c', 'd', 'e'];
    const change = (): DocumentChange => (next() < 0.2 ? { tag: 'delete', val: { collection: 'docs', id: pick(ids) } } : put('docs', pick(ids), Math.floor(next() * 1000)));
    for (let step = 0; step < 1500; step++) {
      const store = pick(stores);
      // Now and then one instance commits a long burst, so the others fall past the follow limit.
      const commits = next() < 0.01 ? 70 + Math.floor(next() * 20) : next() < 0.5 ? 1 : 0;
      for (let i = 0; i < commits; i++) {
        const projection = pick(['p', 'q']);
        const at = model.checkpoint(projection);
        const changes = Array.from({ length: Math.floor(next() * 4) }, change);
        expect(store.commit(projection, at, at + 1n, changes)).toBe(model.commit(projection, at, at + 1n, changes));
      }
      const id = pick(ids);
      expect(store.getDocument({ collection: 'docs', id })).toEqual(model.getDocument({ collection: 'docs', id }));
      expect(store.checkpoint('p')).toBe(model.checkpoint('p'));
      if (step % 100 === 0) expect(store.listDocuments('docs', undefined, 10)).toEqual(model.listDocuments('docs', undefined, 10));
    }
  }, 240_000); // a guard against a hang: 60.3 s beside other suites (load 30), synchronous work all of it

  it('a directory written by the single-snapshot projection format is indexed on first open, losing nothing', () => {
    const dir = freshDir();
    // The earlier format: the same log files, plus one snapshot of every document (a cache).
    const log = [
      { projection: 'p', next: '4', changes: [put('users', 'u1', { n: 1 }), put('users', 'u2', { n: 2 })] },
      { projection: 'q', next: '9', changes: [] },
      { projection: 'p', next: '6', changes: [put('users', 'u1', { n: 3 }), { tag: 'delete', val: { collection: 'users', id: 'u2' } }] },
    ];
    mkdirSync(join(dir, 'projections', 'log'), { recursive: true });
    for (const [i, commit] of log.entries()) writeFileSync(join(dir, 'projections', 'log', padded(BigInt(i + 1))), JSON.stringify(commit));
    const snapshot = { asOf: '3', checkpoints: { p: '6', q: '9' }, documents: { 'users\u0000u1': { body: '{"n":3}', version: '2' } } };
    writeFileSync(join(dir, 'projections', 'snapshot'), JSON.stringify(snapshot));

    const storage = openFileStorage(nodeFileSystem(dir));
    expect(storage.projections.checkpoint('p')).toBe(6n);
    expect(storage.projections.checkpoint('q')).toBe(9n);
    expect(storage.projections.getDocument({ collection: 'users', id: 'u1' })).toEqual({ collection: 'users', id: 'u1', body: '{"n":3}', version: 2n });
    expect(storage.projections.getDocument({ collection: 'users', id: 'u2' })).toBeUndefined();
    expect(existsSync(join(dir, 'projections', 'snapshot'))).toBe(false);
    expect(storage.projections.commit('p', 6n, 7n, [put('users', 'u2', { n: 4 })])).toBe(true);
    expect(storage.projections.listDocuments('users', undefined, 10).map((d) => [d.id, d.version])).toEqual([
      ['u1', 2n],
      ['u2', 1n],
    ]);
  });

  it('a read or a commit costs the same file work however many documents the store holds', () => {
    /** File operations and bytes moved by `run` on a fresh store instance over `dir`. */
    const cost = (dir: string, run: (storage: FileStorage) => void) => {
      const counted = { ops: 0, bytes: 0 };
      const fs = nodeFileSystem(dir);
      const counting = Object.fromEntries(
        Object.entries(fs).map(([name, op]) => [
          name,
          (...args: unknown[]) => {
            counted.ops++;
            const result = (op as (...a: unknown[]) => unknown)(...args);
            if (result instanceof Uint8Array) counted.bytes += result.byteLength;
            if (args[1] instanceof Uint8Array) counted.bytes += args[1].byteLength;
            return result;
          },
        ]),
      ) as unknown as typeof fs;
      run(openFileStorage(counting));
      return counted;
    };
    const workload = (storage: FileStorage) => {
      storage.projections.getDocument({ collection: 'sessions', id: 'probe' });
      const at = storage.projections.checkpoint('auth');
      storage.projections.commit('auth', at, at + 1n, [put('sessions', 'probe', { n: Number(at) })]);
    };
    /** Three commits of `documents / 3` new documents each, then the probe (the same commits either way, so hints line up). */
    const fill = (documents: number) => {
      const dir = freshDir();
      const storage = openFileStorage(nodeFileSystem(dir));
      const perCommit = documents / 3;
      for (let i = 0; i < documents; i += perCommit) {
        const changes = Array.from({ length: perCommit }, (_, j) => put('sessions', `session-${String(i + j).padStart(6, '0')}`, { user: 'u', at: i + j }));
        storage.projections.commit('auth', BigInt(i), BigInt(i + perCommit), changes);
      }
      storage.projections.commit('auth', BigInt(documents), BigInt(documents) + 1n, [put('sessions', 'probe', { n: 0 })]);
      return dir;
    };
    const few = cost(fill(150), workload);
    const many = cost(fill(3000), workload);
    // Only hints may differ (where a walk starts, a refreshed tip): a few probes and bytes, never per document.
    expect(Math.abs(many.ops - few.ops)).toBeLessThanOrEqual(8);
    expect(Math.abs(many.bytes - few.bytes)).toBeLessThan(256);
  }, 60_000);

  it('a writer of a busy stream pays one read per commit of other instances, no probe or index read per revision', () => {
    const dir = freshDir();
    const calls: string[] = [];
    const fs = nodeFileSystem(dir);
    const counting = Object.fromEntries(
      Object.entries(fs).map(([name, op]) => [name, (...args: unknown[]) => (calls.push(`${name} ${String(args[0])}`), (op as (...a: unknown[]) => unknown)(...args))]),
    ) as unknown as typeof fs;
    const mine = openFileStorage(counting).events;
    const others = openFileStorage(nodeFileSystem(dir)).events;
    /** A command's store work: the newest events, then the append after them. */
    const command = (events: FileStorage['events']) => {
      const head = events.readStream('busy', { direction: 'backward', limit: 5 })[0]?.revision ?? 0n;
      events.append('busy', head === 0n ? { tag: 'no-stream' } : { tag: 'exact', val: head }, [event('a')]);
    };
    for (let i = 0; i < 20; i++) command(i % 2 === 0 ? mine : others);
    const foreign = 15;
    for (let i = 0; i < foreign; i++) command(others);
    calls.length = 0;
    command(mine);
    const revisionFiles = calls.filter((c) => c.includes('events/streams/') && !c.endsWith('/tip'));
    // The chain walk reads each foreign commit once; the revision comes from the newest commit and
    // the read's events from the commits walked: only the writer's own revision file is written.
    expect(calls.filter((c) => c.startsWith('read events/log/')).length).toBeLessThanOrEqual(foreign + 3); // and the failed probe past the end, per sync
    expect(revisionFiles.filter((c) => !c.startsWith('publish '))).toHaveLength(1); // the newest foreign commit's index, checked once
    expect(revisionFiles.filter((c) => c.startsWith('publish '))).toHaveLength(1);
    expect(calls.length).toBeLessThanOrEqual(foreign + 12);
  });

  it('leftover temporary files and a stale head hint do not disturb reads or appends', () => {
    const dir = freshDir();
    const storage = openFileStorage(nodeFileSystem(dir));
    for (let i = 0; i < 5; i++) storage.events.append('s', { tag: 'any' }, [event('a')]);
    mkdirSync(join(dir, 'tmp'), { recursive: true });
    writeFileSync(join(dir, 'tmp', 'half-written'), '{"v":1,"stre');
    writeFileSync(join(dir, 'events', 'head'), '1');
    expect(storage.events.headSequence()).toBe(5n);
    expect(storage.events.append('s', { tag: 'exact', val: 5n }, [event('b')])[0]?.sequence).toBe(6n);
  });

  it('breaks a key-value lock left by a killed instance', () => {
    const dir = freshDir();
    const storage = openFileStorage(nodeFileSystem(dir));
    storage.keyValue.set('ns', 'k', '1', undefined);
    writeFileSync(join(dir, 'kv', hashed('ns'), `${hashed('k')}.lock`), String(Date.now() - 60_000));
    expect(storage.keyValue.increment('ns', 'k', 1n, 1000n)).toBe(2n);
  });

  it('fails unavailable when the data directory is unusable', () => {
    const file = join(root, `not-a-dir-${++counter}`);
    writeFileSync(file, 'x');
    const storage = openFileStorage(nodeFileSystem(file));
    let failure: unknown;
    try {
      storage.events.append('s', { tag: 'any' }, [event('a')]);
    } catch (error) {
      failure = error;
    }
    expect((failure as FileStoreFailure).payload.tag).toBe('unavailable');
  });
});
