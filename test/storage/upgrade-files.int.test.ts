/**
 * Every file store an earlier release wrote (test/fixtures/stores/<release>/files/, see
 * test/fixtures/upgrade-file-store.ts) is read by this build's file store and application, in
 * process over node:fs (the wasi:filesystem semantics, node-file-system.ts): the same count and
 * events, a command on top, both accounts found by their email, the OAuth account through its
 * stored identity, each user's session list, and every stored event through the versioned readers.
 * And what the store lacks is folded in by the first maintenance pass: its sessions join the
 * retention queue (and go, once ended, with retention 0), its OAuth identity is listed on the user,
 * so deleting that account removes the identity's stream.
 */
import { cpSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findAccountByEmailHash } from '../../src/auth/application/accounts.ts';
import { payloadOf } from '../../src/auth/application/event-codec.ts';
import { linkOrCreateUserForExternalIdentity } from '../../src/auth/application/external-identity.ts';
import { userSessionEntries } from '../../src/auth/application/projection.ts';
import { listUsers } from '../../src/auth/application/user-list.ts';
import { sha256Hex } from '../../src/auth/application/secrets.ts';
import { buildAuthDeps } from '../../src/auth/index.ts';
import { deleteAccount } from '../../src/auth/application/account-deletion.ts';
import type { ActiveSession } from '../../src/auth/application/sessions.ts';
import { authStreams } from '../../src/auth/application/streams.ts';
import { runMaintenancePass } from '../../src/maintenance/pass.ts';
import { decodeEvent } from '../../src/counter/application/event-codec.ts';
import { executeCounterCommand } from '../../src/counter/application/execute-command.ts';
import { getCounterView } from '../../src/counter/application/get-view.ts';
import { COUNTER_STREAM_ID } from '../../src/counter/domain/counter.ts';
import { unfencedLeases } from '../../src/platform/leases/unfenced-leases.ts';
import { openFileStorage } from '../../src/platform/standalone/file-storage.ts';
import { createMemoryPlatform } from '../../src/platform/testing/memory-platform.ts';
import { FIXTURE_DIR, OAUTH_SUBJECT, type StoreManifest } from '../fixtures/upgrade-store.ts';
import { tempDataDir } from '../../harness/host-process.ts';
import { nodeFileSystem } from '../../scripts/wasmtime/node-file-system.ts';

describe.each(readdirSync(FIXTURE_DIR))('the file store written by %s', (release) => {
  const manifest = JSON.parse(readFileSync(join(FIXTURE_DIR, release, 'manifest.json'), 'utf8')) as StoreManifest;
  const open = (env = new Map<string, string>()) => {
    const dir = tempDataDir('upgrade-files-');
    cpSync(join(FIXTURE_DIR, release, 'files'), dir, { recursive: true });
    const memory = createMemoryPlatform();
    memory.clock.now = Date.now();
    const storage = openFileStorage(nodeFileSystem(dir), () => memory.clock.now);
    const platform = {
      ...memory,
      events: storage.events,
      projections: storage.projections,
      keyValue: storage.keyValue,
      leases: unfencedLeases(storage.events),
      storeUpkeep: () => storage.upkeep(),
      scrubRemoved: () => void storage.upkeep(),
    };
    return { platform, clock: memory.clock, counter: { platform, realtime: { enabled: false, channel: 'upgrade' } }, auth: buildAuthDeps(platform, env) };
  };
  const sessionStreams = (platform: ReturnType<typeof open>['platform']) =>
    new Set(platform.events.readAll(0n, 1000).flatMap((e) => (e.streamId.startsWith('auth-session-') ? [e.streamId] : [])));

  it("one maintenance pass puts the store's sessions in the retention queue; ended, they go", () => {
    const { platform, clock, auth } = open(new Map([['AUTH_SESSION_RETENTION_SECONDS', '0']]));
    expect(sessionStreams(platform).size).toBeGreaterThanOrEqual(2);
    // Past any session's absolute lifetime (at most 30 days).
    clock.now += 31 * 86_400_000;
    const report = runMaintenancePass(auth);
    expect(report.backfilled_events).toBeGreaterThan(0);
    expect(report.session_streams_removed).toBeGreaterThanOrEqual(2);
    expect(sessionStreams(platform).size).toBe(0);
    for (const user of [manifest.password_user, manifest.oauth_user]) expect(userSessionEntries(platform, user.user_id)).toEqual([]);
    // Once done, a pass folds nothing again.
    expect(runMaintenancePass(auth).backfilled_events).toBe(0);
  });

  it("the administration API's search finds the store's accounts as it left them, with no pass first", () => {
    const { auth } = open();
    const ids = listUsers(auth, '', undefined, 100).users.map((u) => u.user_id);
    expect(ids.sort()).toEqual([manifest.password_user.user_id, manifest.oauth_user.user_id].sort());
    expect(listUsers(auth, manifest.password_user.email.slice(0, 4), undefined, 100).users.map((u) => u.user_id)).toContain(manifest.password_user.user_id);
  });

  it("after one pass, deleting the OAuth account removes its identity's stream", async () => {
    const { platform, auth } = open();
    runMaintenancePass(auth);
    const identity = authStreams.identity(manifest.oauth_user.provider, await sha256Hex(`${manifest.oauth_user.provider}\n${OAUTH_SUBJECT}`));
    const before = platform.events.streamRevision(identity);
    expect(before).toBeGreaterThan(0n);
    const current = {
      sessionHash: 'upgrade-fixture-reauth',
      userId: manifest.oauth_user.user_id,
      email: null,
      method: `oauth:${manifest.oauth_user.provider}`,
      issuedAt: platform.now(),
    } as unknown as ActiveSession;
    await deleteAccount(auth, current, { client: '192.0.2.1' });
    expect(platform.events.streamRevision(identity)).toBe(0n);
    expect(platform.events.streamRevision(authStreams.user(manifest.oauth_user.user_id))).toBe(0n);
  });

  it('shows the same count and events, and takes a command on top', async () => {
    const { counter } = open();
    const view = getCounterView(counter);
    expect([view.count, view.last_sequence]).toEqual([manifest.counter.count, manifest.counter.last_sequence]);
    expect(view.latest_events.map((e) => e.payload)).toEqual(manifest.counter.payloads);
    expect((await executeCounterCommand(counter, { type: 'increment', amount: 1 })).count).toBe(manifest.counter.count + 1);
  });

  it('finds both accounts by email, and the OAuth account through its stored identity', async () => {
    const { platform, auth } = open();
    const password = findAccountByEmailHash(platform, await sha256Hex(manifest.password_user.email));
    expect(password?.userId).toBe(manifest.password_user.user_id);
    expect(password?.passwordHash).toMatch(/^\$argon2id\$/);
    const linked = await linkOrCreateUserForExternalIdentity(auth, {
      provider: manifest.oauth_user.provider,
      subject: OAUTH_SUBJECT,
      email: 'upgrade-oauth@example.test',
      emailVerified: true,
    });
    expect(linked).toMatchObject({ userId: manifest.oauth_user.user_id, created: false, linked: false });
  });

  it("reads each user's session list and every stored event through the versioned readers", () => {
    const { platform } = open();
    for (const user of [manifest.password_user, manifest.oauth_user]) expect(userSessionEntries(platform, user.user_id)).toHaveLength(1);
    const all = platform.events.readAll(0n, 1000);
    expect(all.length).toBeGreaterThan(0);
    for (const event of all) {
      if (event.streamId === COUNTER_STREAM_ID) expect(decodeEvent(event).type).toBe(event.eventType);
      else expect(payloadOf<Record<string, unknown>>(event)).toBeTypeOf('object');
    }
  });
});
