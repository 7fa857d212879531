/** Account deletion over the in-memory platform: re-authentication, erasure from every stream and read model, the email free again. */
import { describe, expect, it } from 'vitest';
import { createMemoryPlatform } from '../../platform/testing/memory-platform.ts';
import { parseAuthConfig } from '../config.ts';
import {
  deleteAccount,
  findActiveSession,
  getStorageStatus,
  issueSession,
  linkOrCreateUserForExternalIdentity,
  loginWithPassword,
  registerWithPassword,
  REAUTH_WINDOW_MS,
  type AuthDeps,
} from './index.ts';

function setup() {
  const platform = createMemoryPlatform();
  const deps: AuthDeps = { platform, config: parseAuthConfig(new Map([['AUTH_LOGIN_MAX_FAILURES', '3']])) };
  return { platform, deps };
}
const alice = { email: 'alice@example.com', password: 'correct horse battery' };
const client = '192.0.2.7';

/** Everything the store holds, as text: events (with stream names), documents, key-value. */
function storeText(deps: AuthDeps): string {
  const { platform } = deps;
  const events = platform.events.readAll(0n, 1000).map((e) => `${e.streamId} ${e.eventType} ${e.payload}`);
  const docs = ['auth_users', 'auth_user_sessions', 'auth_session_ends', 'auth_ended_sessions'].flatMap((c) =>
    platform.projections.listDocuments(c, undefined, 1000).map((d) => `${c}/${d.id} ${d.body}`),
  );
  return [...events, ...docs].join('\n');
}

describe('deleteAccount()', () => {
  it('with the password: every session ends, the email and devices are erased, the email registers again', async () => {
    const { platform, deps } = setup();
    await registerWithPassword(deps, alice);
    const phone = await loginWithPassword(deps, alice, { client, device: 'Safari on iOS' });
    const laptop = await loginWithPassword(deps, alice, { client, device: 'Firefox on Linux' });
    platform.respond();
    const bob = { email: 'bob@example.com', password: 'another long password' };
    await registerWithPassword(deps, bob);
    const bobSession = await loginWithPassword(deps, bob);
    platform.respond();
    const counts = getStorageStatus(deps).events;
    expect(storeText(deps)).toContain('alice@example.com');

    const current = (await findActiveSession(deps, laptop.session.sessionId))!;
    expect(platform.scrubs).toEqual([]);
    await deleteAccount(deps, current, { password: alice.password, client });
    // The store is asked once to scrub its files of what was removed, before the answer.
    expect(platform.scrubs).toHaveLength(1);
    platform.respond();

    const text = storeText(deps);
    expect(text).not.toContain('alice@example.com');
    expect(text).not.toContain('Safari on iOS');
    expect(text).not.toContain(current.userId);
    expect(await findActiveSession(deps, phone.session.sessionId)).toBeUndefined();
    expect(await findActiveSession(deps, laptop.session.sessionId)).toBeUndefined();
    // Someone else's account is untouched; the counts are the totals ever written.
    expect(await findActiveSession(deps, bobSession.session.sessionId)).toBeDefined();
    expect(getStorageStatus(deps).events).toEqual(counts);
    await expect(registerWithPassword(deps, alice)).resolves.toMatchObject({ created: true });
    await expect(loginWithPassword(deps, alice)).resolves.toMatchObject({ email: 'alice@example.com' });
  });

  it('refuses without re-authentication: no password, a wrong one, or a provider sign-in older than 5 minutes', async () => {
    const { platform, deps } = setup();
    await registerWithPassword(deps, alice);
    const signedIn = await loginWithPassword(deps, alice);
    const current = (await findActiveSession(deps, signedIn.session.sessionId))!;
    await expect(deleteAccount(deps, current, { client })).rejects.toMatchObject({ code: 'forbidden' });
    await expect(deleteAccount(deps, current, { password: 'wrong wrong wrong', client })).rejects.toMatchObject({ code: 'forbidden' });
    // Wrong passwords count against the login limit (AUTH_LOGIN_MAX_FAILURES=3): the fourth try is refused unverified.
    for (let i = 0; i < 2; i++) await expect(deleteAccount(deps, current, { password: 'wrong wrong wrong', client })).rejects.toMatchObject({ code: 'forbidden' });
    await expect(deleteAccount(deps, current, { password: 'wrong wrong wrong', client })).rejects.toMatchObject({ code: 'rate_limited' });
    expect(await findActiveSession(deps, signedIn.session.sessionId)).toBeDefined();

    const linked = await linkOrCreateUserForExternalIdentity(deps, { provider: 'provider_a', subject: 'subject-42', email: 'carol@example.com', emailVerified: true });
    const issued = await issueSession(deps, { userId: linked.userId, email: linked.email, aal: 'aal1', method: 'oauth:provider_a' });
    platform.respond();
    platform.clock.advance(REAUTH_WINDOW_MS + 1000);
    const stale = (await findActiveSession(deps, issued.sessionId))!;
    await expect(deleteAccount(deps, stale, { client })).rejects.toMatchObject({ code: 'forbidden' });
    // Nothing was erased: nothing to scrub.
    expect(platform.scrubs).toEqual([]);
  });

  it('after a fresh provider sign-in: the identity unlinks and the same subject makes a new account', async () => {
    const { platform, deps } = setup();
    const identity = { provider: 'provider_a', subject: 'subject-42', email: 'carol@example.com', emailVerified: true };
    const linked = await linkOrCreateUserForExternalIdentity(deps, identity);
    const issued = await issueSession(deps, { userId: linked.userId, email: linked.email, aal: 'aal1', method: 'oauth:provider_a', device: 'Chrome on Android' });
    platform.respond();
    await deleteAccount(deps, (await findActiveSession(deps, issued.sessionId))!, { client });
    platform.respond();
    const text = storeText(deps);
    expect(text).not.toContain('carol@example.com');
    expect(text).not.toContain('Chrome on Android');
    expect(text).not.toContain('auth-identity-provider_a');
    const again = await linkOrCreateUserForExternalIdentity(deps, identity);
    expect(again).toMatchObject({ created: true });
    expect(again.userId).not.toBe(linked.userId);
  });
});
