/**
 * Every file store an earlier release wrote (test/fixtures/stores/<release>/files/, see
 * test/fixtures/upgrade-file-store.ts) is read by this build's file store and application, in
 * process over node:fs (the wasi:filesystem semantics, node-file-system.ts): the same count and
 * events, a command on top, both accounts found by their email, the OAuth account through its
 * stored identity, each user's session list, and every stored event through the versioned readers.
 */
import { cpSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findAccountByEmailHash } from '../../src/auth/application/accounts.ts';
import { payloadOf } from '../../src/auth/application/event-codec.ts';
import { linkOrCreateUserForExternalIdentity } from '../../src/auth/application/external-identity.ts';
import { userSessionEntries } from '../../src/auth/application/projection.ts';
import { sha256Hex } from '../../src/auth/application/secrets.ts';
import { buildAuthDeps } from '../../src/auth/index.ts';
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
  const open = () => {
    const dir = tempDataDir('upgrade-files-');
    cpSync(join(FIXTURE_DIR, release, 'files'), dir, { recursive: true });
    const storage = openFileStorage(nodeFileSystem(dir));
    const platform = { ...createMemoryPlatform(), events: storage.events, projections: storage.projections, keyValue: storage.keyValue, leases: unfencedLeases(storage.events) };
    return { platform, counter: { platform, realtime: { enabled: false, channel: 'upgrade' } }, auth: buildAuthDeps(platform, new Map()) };
  };

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
