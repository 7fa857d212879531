/** Ended sessions leave the read models and, past their retention, the store; counts stay exact; the projection runs once per request. */
import { describe, expect, it } from 'vitest';
import { createMemoryPlatform } from '../../platform/testing/memory-platform.ts';
import { parseAuthConfig } from '../config.ts';
import {
  AUTH_COLLECTIONS,
  authEvent,
  authStreams,
  findActiveSession,
  getStorageStatus,
  issueSession,
  linkOrCreateUserForExternalIdentity,
  loginWithPassword,
  registerWithPassword,
  revokeSession,
  runSessionRetention,
  type AuthDeps,
} from './index.ts';
import { ENDED_SESSIONS } from './retention.ts';

function setup(env: Record<string, string> = {}) {
  const platform = createMemoryPlatform();
  const deps: AuthDeps = { platform, config: parseAuthConfig(new Map(Object.entries({ AUTH_LOGIN_MAX_FAILURES: '1000', AUTH_SESSION_TTL_SECONDS: '2', ...env }))) };
  return { platform, deps };
}
const alice = { email: 'alice@example.com', password: 'correct horse battery' };

const sessionStreams = (deps: AuthDeps) =>
  new Set(
    deps.platform.events
      .readAll(0n, 1000)
      .filter((e) => e.streamId.startsWith('auth-session-'))
      .map((e) => e.streamId),
  );
const documents = (deps: AuthDeps, collection: string) => deps.platform.projections.listDocuments(collection, undefined, 1000);

describe('session retention', () => {
  it('with retention 0, one pass removes every ended session stream; counts stay, a live session stays', async () => {
    const { platform, deps } = setup({ AUTH_SESSION_RETENTION_SECONDS: '0' });
    await registerWithPassword(deps, alice);
    for (let i = 0; i < 20; i++) {
      await loginWithPassword(deps, alice);
      platform.respond();
    }
    const revoked = (await findActiveSession(deps, (await loginWithPassword(deps, alice)).session.sessionId))!;
    revokeSession(deps, revoked);
    platform.respond();
    platform.clock.advance(2500);
    const live = await loginWithPassword(deps, alice);
    platform.respond();
    const before = getStorageStatus(deps);
    expect(sessionStreams(deps).size).toBe(22);

    const pass = runSessionRetention(deps);
    expect(pass).toMatchObject({ removed: 21, more: false });
    expect(sessionStreams(deps).size).toBe(1);
    const after = getStorageStatus(deps);
    expect(after.events).toEqual(before.events);
    expect(after.total).toBe(before.total);
    // The live session still signs in and is the only entry anywhere.
    expect(await findActiveSession(deps, live.session.sessionId)).toBeDefined();
    const [list] = documents(deps, AUTH_COLLECTIONS.userSessions);
    expect(JSON.parse(list!.body).sessions).toHaveLength(1);
    expect(documents(deps, AUTH_COLLECTIONS.sessionEnds)).toHaveLength(1);
    expect(documents(deps, ENDED_SESSIONS)).toHaveLength(0);
    expect(runSessionRetention(deps)).toMatchObject({ removed: 0, ended: 0 });
  });

  it('an ended session leaves its user list at once and its stream only after the retention window', async () => {
    const { platform, deps } = setup({ AUTH_SESSION_RETENTION_SECONDS: '60' });
    await registerWithPassword(deps, alice);
    await loginWithPassword(deps, alice);
    platform.respond();
    platform.clock.advance(2500);
    expect(runSessionRetention(deps)).toMatchObject({ ended: 1, removed: 0 });
    expect(documents(deps, AUTH_COLLECTIONS.userSessions)).toHaveLength(0);
    expect(sessionStreams(deps).size).toBe(1);
    platform.clock.advance(59_000);
    expect(runSessionRetention(deps)).toMatchObject({ removed: 0 });
    platform.clock.advance(2_000);
    expect(runSessionRetention(deps)).toMatchObject({ removed: 1 });
    expect(sessionStreams(deps).size).toBe(0);
    expect(documents(deps, ENDED_SESSIONS)).toHaveLength(0);
  });

  it('a revoked session counts its retention from the revocation, not its expiry', async () => {
    const { platform, deps } = setup({ AUTH_SESSION_TTL_SECONDS: '3600', AUTH_SESSION_RETENTION_SECONDS: '10' });
    await registerWithPassword(deps, alice);
    const signedIn = await loginWithPassword(deps, alice);
    platform.respond();
    revokeSession(deps, (await findActiveSession(deps, signedIn.session.sessionId))!);
    platform.respond();
    platform.clock.advance(11_000);
    expect(runSessionRetention(deps)).toMatchObject({ ended: 1, removed: 1 });
    expect(sessionStreams(deps).size).toBe(0);
    expect(documents(deps, AUTH_COLLECTIONS.sessionEnds)).toHaveLength(0);
  });
});

describe('the auth projection per request', () => {
  it('runs once, after the response, for a sign-in that links an identity, issues a session and ends the previous one', async () => {
    const { platform, deps } = setup({ AUTH_SESSION_TTL_SECONDS: '3600' });
    const first = await linkOrCreateUserForExternalIdentity(deps, { provider: 'provider_a', subject: 'sub-1', email: 'bob@example.com', emailVerified: true });
    const previous = await issueSession(deps, { userId: first.userId, email: first.email, aal: 'aal1', method: 'oauth:provider_a' });
    platform.respond();
    const commits = platform.faults.calls('commit');

    // One callback request: link a second provider, issue a session, end the one the browser held.
    const linked = await linkOrCreateUserForExternalIdentity(deps, { provider: 'provider_b', subject: 'sub-2', email: 'bob@example.com', emailVerified: true });
    await issueSession(deps, { userId: linked.userId, email: linked.email, aal: 'aal1', method: 'oauth:provider_b' });
    revokeSession(deps, (await findActiveSession(deps, previous.sessionId))!);
    expect(platform.faults.calls('commit')).toBe(commits);
    platform.respond();
    expect(platform.faults.calls('commit')).toBe(commits + 1);
    const user = JSON.parse(platform.projections.getDocument({ collection: AUTH_COLLECTIONS.users, id: linked.userId })!.body);
    expect(user.providers).toEqual(['provider_a', 'provider_b']);
  });

  it('a sign-in’s trace is in its session’s stream and goes with it; an older store’s user stream of traces goes at the next removal', async () => {
    const { platform, deps } = setup({ AUTH_SESSION_RETENTION_SECONDS: '0' });
    const { userId } = (await registerWithPassword(deps, alice)) as { userId: string };
    // What a store from before holds: the user's stream of sign-in traces.
    for (let i = 0; i < 3; i++) platform.events.append(authStreams.user(userId), { tag: 'any' }, [authEvent('auth_password_login_succeeded', { user_id: userId })]);
    await loginWithPassword(deps, alice);
    platform.respond();
    const traces = () => platform.events.readAll(0n, 1000).filter((e) => e.eventType === 'auth_password_login_succeeded');
    expect(traces().map((e) => e.streamId.replace(/-[0-9a-f-]+$/, ''))).toEqual(['auth-user', 'auth-user', 'auth-user', 'auth-session']);
    const before = getStorageStatus(deps);

    platform.clock.advance(2500);
    expect(runSessionRetention(deps)).toMatchObject({ removed: 1 });
    expect(traces()).toEqual([]);
    expect(getStorageStatus(deps).events['auth_password_login_succeeded']).toBe(before.events['auth_password_login_succeeded']);
  });

  it('a provider account’s user stream stays', async () => {
    const { platform, deps } = setup({ AUTH_SESSION_RETENTION_SECONDS: '0' });
    const linked = await linkOrCreateUserForExternalIdentity(deps, { provider: 'provider_a', subject: 'sub-1', email: null, emailVerified: false });
    await issueSession(deps, { userId: linked.userId, email: null, aal: 'aal1', method: 'oauth:provider_a' });
    platform.respond();
    platform.clock.advance(2500);
    expect(runSessionRetention(deps)).toMatchObject({ removed: 1 });
    expect(platform.events.readStream(authStreams.user(linked.userId), { direction: 'forward', limit: 10 })).toHaveLength(1);
  });
});
