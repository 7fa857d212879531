/** The auth application over the in-memory platform: accounts, login, limits, sessions, linking, projection. */
import { describe, expect, it } from 'vitest';
import { createMemoryPlatform } from '../../platform/testing/memory-platform.ts';
import { parseAuthConfig } from '../config.ts';
import {
  AUTH_COLLECTIONS,
  findActiveSession,
  getStorageStatus,
  linkOrCreateUserForExternalIdentity,
  loginWithPassword,
  registerWithPassword,
  revokeSession,
  type AuthDeps,
} from './index.ts';

function setup(env: Record<string, string> = {}) {
  const platform = createMemoryPlatform();
  const deps: AuthDeps = { platform, config: parseAuthConfig(new Map(Object.entries({ AUTH_LOGIN_MAX_FAILURES: '3', AUTH_LOGIN_LOCKOUT_SECONDS: '60', ...env }))) };
  return { platform, deps };
}
const alice = { email: 'Alice@Example.com', password: 'correct horse battery' };

describe('registerWithPassword()', () => {
  it('claims the normalized email, stores only a hash and signs the account in', async () => {
    const { platform, deps } = setup();
    const signedIn = await registerWithPassword(deps, alice);
    expect(signedIn.email).toBe('alice@example.com');
    const stored = platform.events.readAll(0n, 10).map((e) => `${e.eventType} ${e.payload}`).join('\n');
    expect(stored).not.toContain(alice.password);
    expect(stored).not.toContain(signedIn.session.sessionId);
    expect(stored).toMatch(/"password_hash":"\$scrypt\$/);
    expect((await findActiveSession(deps, signedIn.session.sessionId))?.userId).toBe(signedIn.userId);
  });

  it('refuses a second account for the same email in any case (409 conflict)', async () => {
    const { deps } = setup();
    await registerWithPassword(deps, alice);
    await expect(registerWithPassword(deps, { ...alice, email: 'ALICE@example.COM' })).rejects.toMatchObject({ code: 'conflict' });
  });
});

describe('loginWithPassword()', () => {
  it('fails the same way for a wrong email and a wrong password, hashing both times', async () => {
    const { platform, deps } = setup();
    await registerWithPassword(deps, alice);
    const before = platform.passwords.calls;
    await expect(loginWithPassword(deps, { email: 'bob@example.com', password: alice.password })).rejects.toMatchObject({ code: 'invalid_credentials', message: 'invalid email or password' });
    await expect(loginWithPassword(deps, { ...alice, password: 'wrong password here' })).rejects.toMatchObject({ code: 'invalid_credentials', message: 'invalid email or password' });
    expect(platform.passwords.calls - before).toBeGreaterThanOrEqual(2);
  });

  it('locks an email after repeated failures, even for the right password, until the window ends', async () => {
    const { platform, deps } = setup();
    await registerWithPassword(deps, alice);
    for (let i = 0; i < 3; i++) await expect(loginWithPassword(deps, { ...alice, password: 'wrong password here' })).rejects.toMatchObject({ code: 'invalid_credentials' });
    await expect(loginWithPassword(deps, alice)).rejects.toMatchObject({ code: 'rate_limited', retryAfterSeconds: 60 });
    platform.clock.advance(30_000);
    await expect(loginWithPassword(deps, alice)).rejects.toMatchObject({ code: 'rate_limited', retryAfterSeconds: 30 });
    platform.clock.advance(30_001);
    await expect(loginWithPassword(deps, alice)).resolves.toMatchObject({ email: 'alice@example.com' });
  });
});

describe('sessions', () => {
  it('expire after the configured TTL and end when revoked', async () => {
    const { platform, deps } = setup({ AUTH_SESSION_TTL_SECONDS: '10' });
    const first = await registerWithPassword(deps, alice);
    platform.clock.advance(10_000);
    expect(await findActiveSession(deps, first.session.sessionId)).toBeUndefined();
    const second = await loginWithPassword(deps, alice);
    const active = await findActiveSession(deps, second.session.sessionId);
    revokeSession(deps, active!);
    expect(await findActiveSession(deps, second.session.sessionId)).toBeUndefined();
  });
});

describe('linkOrCreateUserForExternalIdentity()', () => {
  it('links a verified email to the existing account, then reuses the link', async () => {
    const { deps } = setup();
    const { userId } = await registerWithPassword(deps, alice);
    const identity = { provider: 'provider_a', subject: 'sub-1', email: 'alice@example.com', emailVerified: true };
    expect(await linkOrCreateUserForExternalIdentity(deps, identity)).toMatchObject({ userId, created: false, linked: true });
    expect(await linkOrCreateUserForExternalIdentity(deps, { ...identity, email: 'other@example.com' })).toMatchObject({ userId, linked: false });
  });

  it('never joins an account through an unverified email', async () => {
    const { deps } = setup();
    const { userId } = await registerWithPassword(deps, alice);
    const linked = await linkOrCreateUserForExternalIdentity(deps, { provider: 'provider_b', subject: 's', email: alice.email, emailVerified: false });
    expect(linked).toMatchObject({ created: true, linked: true, email: null });
    expect(linked.userId).not.toBe(userId);
  });
});

describe('auth projection and storage status', () => {
  it('counts every kind and builds the read models up to the latest sequence', async () => {
    const { platform, deps } = setup();
    const { userId } = await registerWithPassword(deps, alice);
    await linkOrCreateUserForExternalIdentity(deps, { provider: 'provider_a', subject: 'sub-1', email: alice.email, emailVerified: true });
    const status = getStorageStatus(deps);
    expect(status.events).toMatchObject({ auth_password_user_registered: 1, auth_session_issued: 1, auth_external_identity_linked: 1, auth_oauth_state_created: 0 });
    expect(status.total).toBe(3);
    expect(status.projections).toEqual([{ name: 'auth_projection', checkpoint: status.latest_sequence }]);
    const user = JSON.parse(platform.projections.getDocument({ collection: AUTH_COLLECTIONS.users, id: userId })!.body);
    expect(user).toMatchObject({ email: 'alice@example.com', registered_with: 'password', providers: ['provider_a'] });
    expect(platform.projections.listDocuments(AUTH_COLLECTIONS.sessions, undefined, 10)).toHaveLength(1);
  });
});
