/**
 * The file store (what `wasmtime serve` runs on) under the auth application's maintenance and
 * account deletion, on node:fs: the direct-store path, since this machine cannot build the
 * standalone component (it needs `wac`). Many sign-ins with 2 s sessions, the clock moved past
 * their end, one maintenance pass: the live session's stream is the only one left, expired
 * key-value files are gone, no file holds an ended session's email or device hint, and the
 * storage-status counts are unchanged. Then a deleted account's email, its hash (in contents and in
 * the hex of file names) and device hint are in no file as soon as the deletion returns.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAuthConfig } from '../../src/auth/config.ts';
import { deleteAccount, findActiveSession, getStorageStatus, loginWithPassword, registerWithPassword, sha256Hex, type AuthDeps } from '../../src/auth/application/index.ts';
import { runMaintenancePass } from '../../src/maintenance/pass.ts';
import { AfterResponse, logAfterResponseFailure } from '../../src/platform/after-response.ts';
import { unfencedLeases } from '../../src/platform/leases/unfenced-leases.ts';
import type { Platform, RecordedEvent } from '../../src/platform/ports.ts';
import { raceWorkers } from './race-workers.ts';
import type { FileSystem } from '../../src/platform/standalone/file-system.ts';
import { openFileStorage } from '../../src/platform/standalone/file-storage.ts';
import { padded } from '../../src/platform/standalone/names.ts';
import { noPubSub } from '../../src/platform/standalone/pubsub-none.ts';
import { MemoryMailer } from '../../src/platform/testing/memory-mailer.ts';
import { MemoryPasswordHasher } from '../../src/platform/testing/memory-password-hasher.ts';
import { RecordingLogger } from '../../src/platform/testing/recording-logger.ts';
import { nodeFileSystem } from '../../scripts/wasmtime/node-file-system.ts';

const root = mkdtempSync(join(tmpdir(), 'files-lifecycle-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const SIGN_INS = 300;

function filePlatform(dir: string) {
  const clock = { now: Date.now() };
  const storage = openFileStorage(nodeFileSystem(dir), () => clock.now);
  const after = new AfterResponse();
  const logger = new RecordingLogger();
  const platform: Platform = {
    events: storage.events,
    leases: unfencedLeases(storage.events),
    projections: storage.projections,
    keyValue: storage.keyValue,
    pubsub: noPubSub,
    passwords: new MemoryPasswordHasher(),
    mail: new MemoryMailer(storage.keyValue),
    logger,
    now: () => clock.now,
    sleep: async () => {},
    afterResponse: (key, task) => after.defer(key, task),
    storeUpkeep: () => storage.upkeep(),
    scrubRemoved: () => void storage.upkeep(),
  };
  const respond = () => after.drain(logAfterResponseFailure(logger));
  return { platform, clock, respond };
}

function files(dir: string, under = ''): string[] {
  const path = join(dir, under);
  return readdirSync(path).flatMap((name) => (statSync(join(path, name)).isDirectory() ? files(dir, join(under, name)) : [join(under, name)]));
}
const everyFile = (dir: string) =>
  files(dir)
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('\n');

describe('the file store under maintenance and account deletion', () => {
  // The limit guards against a hang: the sign-ins' file work took over 120 s beside other suites (load 27).
  it(`${SIGN_INS} sign-ins with 2 s sessions, then one pass: only the live session is left`, { timeout: 300_000 }, async () => {
    const dir = join(root, 'retention');
    const { platform, clock, respond } = filePlatform(dir);
    const env = { AUTH_SESSION_TTL_SECONDS: '2', AUTH_SESSION_RETENTION_SECONDS: '0', AUTH_LOGIN_MAX_FAILURES: '1000' };
    const deps: AuthDeps = { platform, config: parseAuthConfig(new Map(Object.entries(env))) };
    const users = Array.from({ length: 6 }, (_, i) => ({ email: `user${i}@example.com`, password: 'correct horse battery' }));
    for (const user of users) await registerWithPassword(deps, user);
    for (let i = 0; i < SIGN_INS; i++) {
      await loginWithPassword(deps, users[i % users.length]!, { client: '192.0.2.1', device: 'Ended Device' });
      respond();
    }
    const sessionDirsBefore = readdirSync(join(dir, 'events/streams')).length;
    expect(sessionDirsBefore).toBeGreaterThan(SIGN_INS);
    const logFilesBefore = files(dir, 'events/log').length + files(dir, 'projections/log').length + files(dir, 'projections/documents').length;
    expect(logFilesBefore).toBeGreaterThan(3 * SIGN_INS);

    // Every session has ended, and the sign-ins' throttle windows (2 minutes) have expired.
    clock.now += 3 * 60_000;
    const live = await loginWithPassword(deps, users[0]!, { client: '192.0.2.1', device: 'Live Device' });
    respond();
    const before = getStorageStatus(deps).events;
    const report = runMaintenancePass(deps);
    expect(report).toMatchObject({ session_streams_removed: SIGN_INS, more: false });
    expect(report.store_upkeep).toBeGreaterThan(0);

    // Stream directories left: the 6 email claims and the live session (a sign-in's trace is kept
    // in its session's stream, so the users' own streams never held more than traces).
    expect(readdirSync(join(dir, 'events/streams'))).toHaveLength(users.length + 1);
    // Files of the logs and documents: the live data plus a constant, whatever SIGN_INS is. Live:
    // each user's registration commits and documents, the live session's commits and documents.
    const liveCommits = new Set<string>();
    for (let after = 0n, page = platform.events.readAll(after, 1000); page.length > 0; after = page.at(-1)!.sequence, page = platform.events.readAll(after, 1000)) {
      for (const event of page) liveCommits.add(`${event.streamId}@${event.sequence - event.revision}`);
    }
    expect(files(dir, 'events/log').length, 'event log files').toBeLessThanOrEqual(2 * liveCommits.size + 4);
    expect(files(dir, 'projections/log').length, 'projection log files').toBeLessThanOrEqual(3);
    expect(files(dir, 'projections/documents').length, 'document files').toBeLessThanOrEqual(users.length * 4 + 8);
    expect(files(dir, 'events/removed').length, 'removal markers').toBeLessThanOrEqual(1);
    // No expired key-value file is left.
    for (const file of files(dir, 'kv')) {
      const entry = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { expiresAt: number | null };
      expect(entry.expiresAt === null || entry.expiresAt > clock.now, file).toBe(true);
    }
    const text = everyFile(dir);
    expect(text).not.toContain('Ended Device');
    expect(text).toContain('Live Device');
    const after = getStorageStatus(deps).events;
    expect(after).toEqual(before);
    expect(await findActiveSession(deps, live.session.sessionId)).toBeDefined();
  });

  it('a deleted account leaves its email in no file', async () => {
    const dir = join(root, 'deletion');
    const { platform, respond } = filePlatform(dir);
    const deps: AuthDeps = { platform, config: parseAuthConfig(new Map()) };
    const alice = { email: 'alice-files@example.com', password: 'correct horse battery' };
    await registerWithPassword(deps, alice);
    const signedIn = await loginWithPassword(deps, alice, { client: '192.0.2.1', device: 'Alice Device' });
    respond();
    // The address's hash names the account's streams and keys; file names spell ids in hex.
    const hash = await sha256Hex(alice.email);
    const traces = [alice.email, 'Alice Device', hash, Buffer.from(hash).toString('hex')];
    const named = () => `${files(dir).join('\n')}\n${everyFile(dir)}`;
    for (const trace of traces) expect(named()).toContain(trace);
    await deleteAccount(deps, (await findActiveSession(deps, signedIn.session.sessionId))!, { password: alice.password, client: '192.0.2.1' });
    // No pass, no response: the deletion itself leaves the files clean (scrubRemoved).
    const text = named();
    for (const trace of traces) expect(text).not.toContain(trace);
    respond();
    await expect(registerWithPassword(deps, alice)).resolves.toMatchObject({ created: true });
  });
});

describe('file projection store compaction', () => {
  it('keeps every document readable, by a fresh instance and by one that remembered older entries', () => {
    const dir = join(root, 'compaction');
    const a = openFileStorage(nodeFileSystem(dir));
    const b = openFileStorage(nodeFileSystem(dir));
    let checkpoint = 0n;
    const commit = (store: typeof a, changes: Parameters<typeof a.projections.commit>[3]) => {
      expect(store.projections.commit('p', checkpoint, checkpoint + 1n, changes)).toBe(true);
      checkpoint += 1n;
    };
    for (let i = 1; i <= 5; i++) commit(a, [{ tag: 'put', val: { collection: 'c', id: 'doc', body: `"v${i}"` } }]);
    commit(a, [{ tag: 'put', val: { collection: 'c', id: 'gone', body: '"secret"' } }]);
    // b remembers the document at v5.
    expect(b.projections.getDocument({ collection: 'c', id: 'doc' })).toMatchObject({ body: '"v5"', version: 5n });
    commit(a, [
      { tag: 'put', val: { collection: 'c', id: 'doc', body: '"v6"' } },
      { tag: 'delete', val: { collection: 'c', id: 'gone' } },
    ]);
    commit(a, [{ tag: 'put', val: { collection: 'c', id: 'doc', body: '"v7"' } }]);
    expect(a.upkeep()).toBeGreaterThan(0);
    expect(everyFile(dir)).not.toContain('secret');

    const fresh = openFileStorage(nodeFileSystem(dir));
    for (const store of [a, b, fresh]) {
      expect(store.projections.getDocument({ collection: 'c', id: 'doc' })).toMatchObject({ body: '"v7"', version: 7n });
      expect(store.projections.getDocument({ collection: 'c', id: 'gone' })).toBeUndefined();
      expect(store.projections.checkpoint('p')).toBe(checkpoint);
    }
    // Writers after compaction: the stale instance cannot publish over a compacted name.
    commit(b, [{ tag: 'put', val: { collection: 'c', id: 'doc', body: '"v8"' } }]);
    expect(fresh.projections.getDocument({ collection: 'c', id: 'doc' })).toMatchObject({ body: '"v8"', version: 8n });
    expect(a.projections.commit('p', checkpoint - 1n, checkpoint, [])).toBe(false);
  });
});

/** A file system whose next `publish` first runs `stall` (another instance's work while this one waits). */
function stallingFileSystem(dir: string) {
  const fs = nodeFileSystem(dir);
  const hook: { stall?: (() => void) | undefined } = {};
  const stalling: FileSystem = {
    ...fs,
    publish(path, data) {
      const stall = hook.stall;
      hook.stall = undefined;
      stall?.();
      return fs.publish(path, data);
    },
  };
  return { fs: stalling, hook };
}

const event = (n: number) => ({ eventType: 'test.noted', payload: `{"n":${n}}`, metadata: '{}' });

describe('file store folding', () => {
  it('folds removed event commits into a range: reads and counts exact, a late writer on a freed name takes it back', () => {
    const dir = join(root, 'fold-events');
    const b = openFileStorage(nodeFileSystem(dir));
    const { fs, hook } = stallingFileSystem(dir);
    const a = openFileStorage(fs);
    b.events.append('kept', { tag: 'no-stream' }, [event(1)]);
    b.events.append('gone', { tag: 'no-stream' }, [event(2)]);
    // a finds the head at sequence 2, then stalls before publishing 3.
    expect(a.events.headSequence()).toBe(2n);
    hook.stall = () => {
      b.events.append('gone', { tag: 'any' }, [event(3)]);
      b.events.append('gone', { tag: 'any' }, [event(4), event(5)]);
      b.events.append('kept', { tag: 'any' }, [event(6)]);
      expect(b.events.removeStream('gone', { tag: 'any' })).toBe(4n);
      expect(b.upkeep()).toBeGreaterThan(0);
      expect(existsSync(join(dir, `events/log/${padded(3n)}`))).toBe(false);
    };
    const [late] = a.events.append('late', { tag: 'no-stream' }, [event(7)]);
    expect(late?.sequence).toBe(7n);
    // The stalled writer's first try (at the freed name 3) is gone; the range covers 2..5.
    expect(existsSync(join(dir, `events/log/${padded(3n)}`))).toBe(false);
    const fresh = openFileStorage(nodeFileSystem(dir));
    for (const store of [a, b, fresh]) {
      expect(store.events.readAll(0n, 100).map((e) => e.sequence)).toEqual([1n, 6n, 7n]);
      expect(store.events.readAll(3n, 100).map((e) => e.sequence)).toEqual([6n, 7n]);
      expect(store.events.countByType('test.')).toEqual([{ eventType: 'test.noted', count: 7n }]);
      expect(store.events.streamRevision('gone')).toBe(0n);
    }
    // Totals counted again from the start (a cache that ended inside the range) are the same.
    rmSync(join(dir, 'events/counts'));
    expect(openFileStorage(nodeFileSystem(dir)).events.countByType('test.')).toEqual([{ eventType: 'test.noted', count: 7n }]);
    // Removing more and folding again: a run after the live commit 6 (its own range), and the late
    // writer's commit 7 joins it.
    fresh.events.append('gone', { tag: 'no-stream' }, [event(8)]);
    fresh.events.append('gone', { tag: 'any' }, [event(9)]);
    fresh.events.removeStream('late', { tag: 'any' });
    fresh.events.removeStream('gone', { tag: 'any' });
    fresh.events.append('kept', { tag: 'any' }, [event(10)]);
    fresh.upkeep();
    // 1, the range 2..5 and its marker (the commit of 4 and 5), 6, the range 7..9 and its marker, 10.
    expect(readdirSync(join(dir, 'events/log')).map(Number)).toEqual([1, 2, 4, 6, 7, 9, 10]);
    expect(fresh.events.readAll(0n, 100).map((e) => e.sequence)).toEqual([1n, 6n, 10n]);
    expect(fresh.events.readStream('kept', { direction: 'forward', limit: 10 }).map((e) => e.payload)).toEqual(['{"n":1}', '{"n":6}', '{"n":10}']);
  });

  it('appends from 3 threads while 2 others remove streams and fold: every append once, in order, counted', { timeout: 180_000 }, async () => {
    const dir = join(root, 'fold-race');
    const COUNT = 60;
    await Promise.all([
      raceWorkers(new URL('./files-writer.worker.ts', import.meta.url), 3, { dir, stream: 'counter', count: COUNT }),
      raceWorkers(new URL('./files-writer.worker.ts', import.meta.url), 2, { dir, stream: 'unused', count: COUNT / 2, kind: 'churn' }),
    ]);
    const storage = openFileStorage(nodeFileSystem(dir));
    storage.upkeep();
    const all: RecordedEvent[] = [];
    for (let page = storage.events.readAll(0n, 1000); page.length > 0; page = storage.events.readAll(page.at(-1)!.sequence, 1000)) all.push(...page);
    const counter = all.filter((e) => e.streamId === 'counter');
    expect(all.filter((e) => e.eventType === 'counter.churned')).toEqual([]);
    expect(counter.map((e) => e.revision)).toEqual(counter.map((_, i) => BigInt(i + 1)));
    expect(all.map((e) => e.sequence)).toEqual([...all.map((e) => e.sequence)].sort((x, y) => (x < y ? -1 : 1)));
    expect(storage.events.readStream('counter', { direction: 'forward', limit: 1000 })).toHaveLength(3 * COUNT);
    expect(storage.events.countByType('counter.')).toEqual([
      { eventType: 'counter.churned', count: BigInt(2 * (COUNT / 2) * 3) },
      { eventType: 'counter.incremented', count: BigInt(3 * COUNT) },
      { eventType: 'counter.tail', count: BigInt(COUNT) },
    ]);
    expect(storage.events.headSequence()).toBe(BigInt(3 * COUNT + 2 * (COUNT / 2) * 4));
    // Every removed commit is folded but those next to the newest.
    expect(readdirSync(join(dir, 'events/log')).length).toBeLessThanOrEqual(3 * (3 * COUNT + COUNT) + 4);
  });

  it('folds the projection log to three files; a late writer on a deleted name takes it back', () => {
    const dir = join(root, 'fold-projections');
    const b = openFileStorage(nodeFileSystem(dir));
    const { fs, hook } = stallingFileSystem(dir);
    const a = openFileStorage(fs);
    const put = (id: string, body: string) => ({ tag: 'put' as const, val: { collection: 'c', id, body } });
    expect(b.projections.commit('p', 0n, 1n, [put('doc', '"v1"')])).toBe(true);
    expect(a.projections.checkpoint('q')).toBe(0n);
    hook.stall = () => {
      for (let n = 2n; n <= 6n; n++) expect(b.projections.commit('p', n - 1n, n, [put('doc', `"v${n}"`), put(`gone-${n}`, '"x"')])).toBe(true);
      expect(
        b.projections.commit(
          'p',
          6n,
          7n,
          [2n, 3n, 4n, 5n, 6n].map((n) => ({ tag: 'delete' as const, val: { collection: 'c', id: `gone-${n}` } })),
        ),
      ).toBe(true);
      expect(b.projections.commit('p', 7n, 8n, [])).toBe(true);
      b.upkeep();
      expect(existsSync(join(dir, `projections/log/${padded(2n)}`))).toBe(false);
    };
    // a found the head at 1 and publishes 2, a name the fold deleted: it must land after 8.
    expect(a.projections.commit('q', 0n, 1n, [put('late', '"l"')])).toBe(true);
    expect(existsSync(join(dir, `projections/log/${padded(2n)}`))).toBe(false);
    expect(existsSync(join(dir, `projections/log/${padded(9n)}`))).toBe(true);
    b.upkeep();
    expect(readdirSync(join(dir, 'projections/log'))).toHaveLength(3);
    const fresh = openFileStorage(nodeFileSystem(dir));
    for (const store of [a, b, fresh]) {
      expect(store.projections.getDocument({ collection: 'c', id: 'doc' })).toMatchObject({ body: '"v6"', version: 6n });
      expect(store.projections.getDocument({ collection: 'c', id: 'late' })).toMatchObject({ body: '"l"' });
      expect(store.projections.getDocument({ collection: 'c', id: 'gone-3' })).toBeUndefined();
      expect(store.projections.checkpoint('p')).toBe(8n);
      expect(store.projections.checkpoint('q')).toBe(1n);
    }
    // The deleted documents left no directory; one written again starts at version 1.
    expect(readdirSync(join(dir, 'projections/documents'), { recursive: true }).filter((name) => String(name).split('/').length === 2)).toHaveLength(2);
    expect(b.projections.commit('p', 8n, 9n, [put('gone-3', '"again"')])).toBe(true);
    for (const store of [a, b, fresh]) expect(store.projections.getDocument({ collection: 'c', id: 'gone-3' })).toMatchObject({ body: '"again"', version: 1n });
  });
});
