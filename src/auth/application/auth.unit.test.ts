/** The auth application over the in-memory platform: accounts, login, limits, sessions, linking, projection. */
import { describe, expect, it, vi } from 'vitest';
import { createMemoryPlatform } from '../../platform/testing/memory-platform.ts';
import { parseAuthConfig } from '../config.ts';
import {
  AUTH_COLLECTIONS,
  findActiveSession,
  getStorageStatus,
  linkOrCreateUserForExternalIdentity,
  listSessions,
  loginWithPassword,
  MAX_SESSIONS_PER_USER,
  registerWithPassword,
  revokeAllSessions,
  revokeSession,
  revokeSessionByHandle,
  type AuthDeps,
  type SignInContext,
} from './index.ts';

function setup(env: Record<string, string> = {}) {
  const platform = createMemoryPlatform();
  const deps: AuthDeps = { platform, config: parseAuthConfig(new Map(Object.entries({ AUTH_LOGIN_MAX_FAILURES: '3', AUTH_LOGIN_LOCKOUT_SECONDS: '60', ...env }))) };
  return { platform, deps };
}
const alice = { email: 'Alice@Example.com', password: 'correct horse battery' };

/** Registration never signs in (no account enumeration, docs/security.md): register, then sign in with the same password. */
async function signUp(deps: AuthDeps, credentials: typeof alice, context?: SignInContext) {
  await registerWithPassword(deps, credentials);
  return loginWithPassword(deps, credentials, context);
}

describe('registerWithPassword()', () => {
  it('claims the normalized email and stores only a hash; it signs nobody in', async () => {
    const { platform, deps } = setup();
    const registration = await registerWithPassword(deps, alice);
    expect(registration).toMatchObject({ created: true });
    const stored = platform.events
      .readAll(0n, 10)
      .map((e) => `${e.eventType} ${e.payload}`)
      .join('\n');
    expect(stored).not.toContain(alice.password);
    expect(stored).toMatch(/"password_hash":"\$scrypt\$/);
    expect(stored).not.toContain('auth_session_issued');
    const signedIn = await loginWithPassword(deps, alice);
    expect(signedIn.email).toBe('alice@example.com');
    expect(registration.created && registration.userId).toBe(signedIn.userId);
  });

  it('writes nothing for a taken email in any case, but hashes the password as for a free one, so neither answer nor timing tells them apart', async () => {
    const { platform, deps } = setup();
    await registerWithPassword(deps, alice);
    const events = platform.events.readAll(0n, 100).length;
    const hashes = platform.passwords.calls;
    await expect(registerWithPassword(deps, { email: 'ALICE@example.COM', password: 'another long password' })).resolves.toEqual({ created: false });
    expect(platform.passwords.calls - hashes).toBe(1);
    expect(platform.events.readAll(0n, 100)).toHaveLength(events);
    await expect(loginWithPassword(deps, alice)).resolves.toMatchObject({ email: 'alice@example.com' });
  });
});

describe('loginWithPassword()', () => {
  it('fails the same way for a wrong email and a wrong password, hashing both times', async () => {
    const { platform, deps } = setup();
    await registerWithPassword(deps, alice);
    const before = platform.passwords.calls;
    await expect(loginWithPassword(deps, { email: 'bob@example.com', password: alice.password })).rejects.toMatchObject({
      code: 'invalid_credentials',
      message: 'invalid email or password',
    });
    await expect(loginWithPassword(deps, { ...alice, password: 'wrong password here' })).rejects.toMatchObject({
      code: 'invalid_credentials',
      message: 'invalid email or password',
    });
    expect(platform.passwords.calls - before).toBeGreaterThanOrEqual(2);
  });

  it('locks an email after repeated failures, even for the right password, until the window ends', async () => {
    const { platform, deps } = setup();
    await registerWithPassword(deps, alice);
    for (let i = 0; i < 3; i++) await expect(loginWithPassword(deps, { ...alice, password: 'wrong password here' })).rejects.toMatchObject({ code: 'invalid_credentials' });
    // First the account-wide delay (2 s after the last verification), then the pair's lock (from its 4th attempt).
    await expect(loginWithPassword(deps, alice)).rejects.toMatchObject({ code: 'rate_limited', retryAfterSeconds: 2 });
    platform.clock.advance(2_000);
    await expect(loginWithPassword(deps, alice)).rejects.toMatchObject({ code: 'rate_limited', retryAfterSeconds: 60 });
    platform.clock.advance(30_000);
    await expect(loginWithPassword(deps, alice)).rejects.toMatchObject({ code: 'rate_limited', retryAfterSeconds: 30 });
    platform.clock.advance(30_001);
    await expect(loginWithPassword(deps, alice)).resolves.toMatchObject({ email: 'alice@example.com' });
  });

  it('hashes and verifies the NFKC form: é typed decomposed or composed and full-width letters sign in alike', async () => {
    const { platform, deps } = setup();
    const hash = vi.spyOn(platform.passwords, 'hash');
    const verify = vi.spyOn(platform.passwords, 'verify');
    await registerWithPassword(deps, { email: alice.email, password: 'cle\u0301 ｓｅｃｒｅｔ staple' });
    expect(hash).toHaveBeenLastCalledWith('cl\u00e9 secret staple');
    await expect(loginWithPassword(deps, { email: alice.email, password: 'cl\u00e9 secret staple' })).resolves.toMatchObject({ email: 'alice@example.com' });
    await expect(loginWithPassword(deps, { email: alice.email, password: 'cle\u0301 ｓｅｃｒｅｔ staple' })).resolves.toMatchObject({ email: 'alice@example.com' });
    expect(verify.mock.calls.map(([password]) => password)).toEqual(['cl\u00e9 secret staple', 'cl\u00e9 secret staple']);
    await expect(loginWithPassword(deps, { email: alice.email, password: 'cle secret staple' })).rejects.toMatchObject({ code: 'invalid_credentials' });
  });

  it('refuses a password the bundled tables cannot normalize (400 validation) before hashing or counting an attempt', async () => {
    const { platform, deps } = setup();
    await registerWithPassword(deps, alice);
    const calls = platform.passwords.calls;
    const unsupported = { email: alice.email, password: 'correct horse \u07fd battery' };
    await expect(registerWithPassword(deps, unsupported)).rejects.toMatchObject({ code: 'validation' });
    for (let i = 0; i < 4; i++) await expect(loginWithPassword(deps, unsupported)).rejects.toMatchObject({ code: 'validation' });
    expect(platform.passwords.calls).toBe(calls);
    await expect(loginWithPassword(deps, alice)).resolves.toMatchObject({ email: 'alice@example.com' });
  });
});

describe('sessions', () => {
  it('expire after the configured TTL and end when revoked', async () => {
    const { platform, deps } = setup({ AUTH_SESSION_TTL_SECONDS: '10' });
    await registerWithPassword(deps, alice);
    const first = await loginWithPassword(deps, alice);
    platform.clock.advance(10_000);
    expect(await findActiveSession(deps, first.session.sessionId)).toBeUndefined();
    const second = await loginWithPassword(deps, alice);
    const active = await findActiveSession(deps, second.session.sessionId);
    revokeSession(deps, active!);
    expect(await findActiveSession(deps, second.session.sessionId)).toBeUndefined();
  });
});

describe('linkOrCreateUserForExternalIdentity()', () => {
  it('joins an account whose email a provider verified, then reuses the link', async () => {
    const { deps } = setup();
    const first = await linkOrCreateUserForExternalIdentity(deps, { provider: 'provider_a', subject: 'sub-a', email: alice.email, emailVerified: true });
    const identity = { provider: 'provider_b', subject: 'sub-1', email: 'alice@example.com', emailVerified: true };
    expect(await linkOrCreateUserForExternalIdentity(deps, identity)).toMatchObject({ userId: first.userId, created: false, linked: true });
    expect(await linkOrCreateUserForExternalIdentity(deps, { ...identity, email: 'other@example.com' })).toMatchObject({ userId: first.userId, linked: false });
  });

  it('never links a verified email to a password account (pre-hijacking): a separate account', async () => {
    const { deps } = setup();
    const attacker = await signUp(deps, alice);
    const identity = { provider: 'provider_a', subject: 'victim', email: alice.email, emailVerified: true };
    const victim = await linkOrCreateUserForExternalIdentity(deps, identity);
    expect(victim).toMatchObject({ created: true, linked: true, email: 'alice@example.com' });
    expect(victim.userId).not.toBe(attacker.userId);
    // The victim comes back to the same separate account; the password still opens the attacker's.
    expect(await linkOrCreateUserForExternalIdentity(deps, identity)).toMatchObject({ userId: victim.userId, linked: false });
    expect((await loginWithPassword(deps, alice)).userId).toBe(attacker.userId);
  });

  it('never joins an account through an unverified email', async () => {
    const { deps } = setup();
    const { userId } = await signUp(deps, alice);
    const linked = await linkOrCreateUserForExternalIdentity(deps, { provider: 'provider_b', subject: 's', email: alice.email, emailVerified: false });
    expect(linked).toMatchObject({ created: true, linked: true, email: null });
    expect(linked.userId).not.toBe(userId);
  });
});

describe('auth projection and storage status', () => {
  it('counts every kind and builds the read models up to the latest sequence', async () => {
    const { platform, deps } = setup();
    const { userId } = await signUp(deps, alice);
    const external = await linkOrCreateUserForExternalIdentity(deps, { provider: 'provider_a', subject: 'sub-1', email: 'bob@example.com', emailVerified: true });
    await linkOrCreateUserForExternalIdentity(deps, { provider: 'provider_b', subject: 'sub-2', email: 'bob@example.com', emailVerified: true });
    const status = getStorageStatus(deps);
    expect(status.events).toMatchObject({
      auth_password_user_registered: 1,
      auth_external_user_registered: 1,
      auth_password_login_succeeded: 1,
      auth_session_issued: 1,
      auth_external_identity_linked: 2,
      auth_session_revoked: 0,
    });
    expect(status.total).toBe(6);
    expect(status.projections).toEqual([{ name: 'auth_projection', checkpoint: status.latest_sequence }]);
    const user = JSON.parse(platform.projections.getDocument({ collection: AUTH_COLLECTIONS.users, id: userId })!.body);
    expect(user).toMatchObject({ email: 'alice@example.com', registered_with: 'password', providers: [] });
    const externalUser = JSON.parse(platform.projections.getDocument({ collection: AUTH_COLLECTIONS.users, id: external.userId })!.body);
    expect(externalUser).toMatchObject({ email: 'bob@example.com', registered_with: 'oauth:provider_a', providers: ['provider_a', 'provider_b'] });
    expect(platform.projections.listDocuments(AUTH_COLLECTIONS.sessions, undefined, 10)).toHaveLength(1);
  });
});

describe('idle timeout and a user’s sessions', () => {
  it('ends a session unused for AUTH_SESSION_IDLE_SECONDS, while use keeps it alive', async () => {
    const { platform, deps } = setup({ AUTH_SESSION_IDLE_SECONDS: '120' });
    const { session } = await signUp(deps, alice);
    for (let i = 0; i < 5; i++) {
      platform.clock.advance(100_000);
      expect(await findActiveSession(deps, session.sessionId), `use ${i}`).toBeDefined();
    }
    platform.clock.advance(121_000);
    expect(await findActiveSession(deps, session.sessionId)).toBeUndefined();
  });

  it(`keeps at most ${MAX_SESSIONS_PER_USER} sessions per user: a sign-in beyond ends the oldest`, async () => {
    const { platform, deps } = setup({ AUTH_LOGIN_MAX_FAILURES: '1000' });
    const sessions = [(await signUp(deps, alice)).session];
    for (let i = 1; i < MAX_SESSIONS_PER_USER + 3; i++) {
      platform.clock.advance(1000);
      sessions.push((await loginWithPassword(deps, alice)).session);
    }
    const newest = (await findActiveSession(deps, sessions.at(-1)!.sessionId))!;
    // The list (and the document every sign-in rewrites) stays at the bound.
    expect(listSessions(deps, newest)).toHaveLength(MAX_SESSIONS_PER_USER);
    const doc = platform.projections.getDocument({ collection: AUTH_COLLECTIONS.userSessions, id: newest.userId });
    expect(JSON.parse(doc!.body).sessions).toHaveLength(MAX_SESSIONS_PER_USER);
    // The three oldest cookies no longer sign anybody in; the next oldest still does.
    for (const old of sessions.slice(0, 3)) expect(await findActiveSession(deps, old.sessionId)).toBeUndefined();
    expect(await findActiveSession(deps, sessions[3]!.sessionId)).toBeDefined();
  });

  it('lists sessions by public handle, revokes one by handle, then all', async () => {
    const { platform, deps } = setup();
    const first = await signUp(deps, alice, { client: '192.0.2.1', device: 'Firefox on Linux' });
    platform.clock.advance(1000);
    const second = await loginWithPassword(deps, alice, { client: '192.0.2.2', device: 'Safari on iOS' });
    const current = (await findActiveSession(deps, first.session.sessionId))!;
    const list = listSessions(deps, current);
    expect(list.map((s) => [s.device, s.current])).toEqual([
      ['Safari on iOS', false],
      ['Firefox on Linux', true],
    ]);
    for (const s of list) expect(s.id).not.toContain(first.session.sessionId.slice(0, 10));
    expect(() => revokeSessionByHandle(deps, current, 'A'.repeat(22))).toThrow(expect.objectContaining({ code: 'not_found' }));
    revokeSessionByHandle(deps, current, list[0]!.id);
    expect(await findActiveSession(deps, second.session.sessionId)).toBeUndefined();
    expect(listSessions(deps, current)).toHaveLength(1);
    await loginWithPassword(deps, alice);
    expect(revokeAllSessions(deps, (await findActiveSession(deps, first.session.sessionId))!)).toBe(2);
    expect(await findActiveSession(deps, first.session.sessionId)).toBeUndefined();
  });
});
