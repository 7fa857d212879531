/** The administration actions over the in-memory platform: search, summary, disable, sessions, reset link, delete, the record of each. */
import { describe, expect, it } from 'vitest';
import { createMemoryPlatform } from '../../platform/testing/memory-platform.ts';
import { parseAuthConfig } from '../config.ts';
import {
  findActiveSession,
  getStorageStatus,
  issueSession,
  linkOrCreateUserForExternalIdentity,
  loginWithPassword,
  registerWithPassword,
  type AuthDeps,
} from '../application/index.ts';
import { authEvent } from '../application/event-codec.ts';
import { AUTH_COLLECTIONS } from '../application/projection.ts';
import { sha256Hex } from '../application/secrets.ts';
import { authNamespaces, authStreams } from '../application/streams.ts';
import { listUsers } from '../application/user-list.ts';
import { deleteAccountAsAdmin, disableAccount, enableAccount, revokeSessionsOf, sendResetLink } from './actions.ts';
import { userSummary } from './user-summary.ts';

function setup() {
  const platform = createMemoryPlatform();
  const deps: AuthDeps = { platform, config: parseAuthConfig(new Map([['AUTH_PUBLIC_BASE_URL', 'http://localhost:3000']])) };
  return { platform, deps };
}
const admin = { subject: 'operator-7' };
const PASSWORD = 'correct horse battery';
const client = { client: '192.0.2.7', device: 'Firefox on Linux' };

async function account(deps: AuthDeps, email: string): Promise<string> {
  const registration = await registerWithPassword(deps, { email, password: PASSWORD });
  if (!registration.created) throw new Error('taken');
  deps.platform.afterResponse('flush', () => undefined);
  return registration.userId;
}

describe('listUsers()', () => {
  it('finds accounts by address prefix (ASCII case as stored), in account id order, a page at a time', async () => {
    const { deps } = setup();
    const ids = new Map<string, string>();
    for (const email of ['bob@example.com', 'ada@example.com', 'adam@example.org', 'Adele@example.net', 'zed@example.com'])
      ids.set(email.toLowerCase(), await account(deps, email));
    const byId = (emails: string[]) => emails.sort((x, y) => (ids.get(x)! < ids.get(y)! ? -1 : 1));
    const all = listUsers(deps, '', undefined, 100);
    expect(all.users.map((u) => u.email)).toEqual(byId([...ids.keys()]));
    expect(all.users.map((u) => u.user_id)).toEqual(all.users.map((u) => ids.get(u.email!)));
    expect(all.next).toBeUndefined();
    const ad = byId(['ada@example.com', 'adam@example.org', 'adele@example.net']);
    const first = listUsers(deps, 'ad', undefined, 2);
    expect(first.users.map((u) => u.email)).toEqual(ad.slice(0, 2));
    expect(first.next).toBeDefined();
    const second = listUsers(deps, 'ad', first.next, 2);
    expect(second.users.map((u) => u.email)).toEqual(ad.slice(2));
    expect(second.next).toBeUndefined();
    expect(listUsers(deps, 'ada@', undefined, 10).users.map((u) => u.email)).toEqual(['ada@example.com']);
    expect(listUsers(deps, 'nobody', undefined, 10)).toEqual({ users: [], next: undefined });
    // A full page with no match after it in the store is the last: no empty page past it.
    const exact = listUsers(deps, 'ad', undefined, 3);
    expect(exact.users).toHaveLength(3);
    expect(exact.next).toBeUndefined();
  });

  it('lists provider accounts without an address too, but a prefix never matches them', async () => {
    const { deps } = setup();
    const ada = await account(deps, 'ada@example.com');
    const linked = await linkOrCreateUserForExternalIdentity(deps, { provider: 'provider_b', subject: 'gh-1', email: null, emailVerified: false });
    expect(
      listUsers(deps, '', undefined, 10)
        .users.map((u) => [u.user_id, u.email])
        .sort(),
    ).toEqual(
      [
        [ada, 'ada@example.com'],
        [linked.userId, null],
      ].sort(),
    );
    expect(listUsers(deps, 'a', undefined, 10).users.map((u) => u.user_id)).toEqual([ada]);
  });

  it('a search is a bounded scan: at most `scanned` accounts per call, `next` goes on where it stopped', async () => {
    const { deps } = setup();
    const emails = ['a1@example.com', 'b1@example.com', 'b2@example.com', 'a2@example.com', 'b3@example.com', 'a3@example.com', 'b4@example.com'];
    for (const email of emails) await account(deps, email);
    const pages: string[][] = [];
    let cursor: string | undefined;
    for (let call = 0; call < 10; call++) {
      const page = listUsers(deps, 'a', cursor, 10, 2);
      pages.push(page.users.map((u) => u.email!));
      cursor = page.next;
      if (cursor === undefined) break;
    }
    // Seven accounts, two scanned per call: four calls, some pages empty, every match once.
    expect(pages).toHaveLength(4);
    expect(pages.flat().sort()).toEqual(['a1@example.com', 'a2@example.com', 'a3@example.com']);
    expect(pages.every((page) => page.length <= 2)).toBe(true);
  });

  it('an account that is gone is not listed, and its id as a cursor still goes on after it', async () => {
    const { deps } = setup();
    const ids = [await account(deps, 'ada@example.com'), await account(deps, 'bob@example.com'), await account(deps, 'cy@example.com')].sort();
    const first = listUsers(deps, '', undefined, 1);
    expect(first.next).toBe(ids[0]);
    await deleteAccountAsAdmin(deps, admin, ids[0]!);
    expect(listUsers(deps, '', first.next, 10).users.map((u) => u.user_id)).toEqual(ids.slice(1));
    expect(listUsers(deps, '', undefined, 10).users.map((u) => u.user_id)).toEqual(ids.slice(1));
  });
});

describe('userSummary()', () => {
  it('shows how the account signs in and its live sessions by handle, never a hash, token or session id', async () => {
    const { deps } = setup();
    const userId = await account(deps, 'ada@example.com');
    const signedIn = await loginWithPassword(deps, { email: 'ada@example.com', password: PASSWORD }, client);
    const summary = await userSummary(deps, userId);
    expect(summary).toMatchObject({
      id: userId,
      email: 'ada@example.com',
      emailVerified: false,
      registeredWith: 'password',
      disabled: false,
      signInMethods: ['password'],
      providers: [],
      passkeys: [],
    });
    expect(summary.sessions).toHaveLength(1);
    expect(summary.sessions[0]).toMatchObject({ device: 'Firefox on Linux', method: 'password' });
    const text = JSON.stringify(summary);
    expect(text).not.toContain(signedIn.session.sessionId);
    expect(text).not.toMatch(/[0-9a-f]{64}/);
    expect(text).not.toContain('$scrypt$');
  });

  it('404 for an id that names no account', async () => {
    const { deps } = setup();
    await expect(userSummary(deps, crypto.randomUUID())).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('disableAccount() / enableAccount()', () => {
  it('ends every session at once and refuses every sign-in until enabled; each change is an event naming the administrator', async () => {
    const { deps } = setup();
    const userId = await account(deps, 'ada@example.com');
    const a = await loginWithPassword(deps, { email: 'ada@example.com', password: PASSWORD }, client);
    const b = await loginWithPassword(deps, { email: 'ada@example.com', password: PASSWORD }, client);
    expect(disableAccount(deps, admin, userId)).toEqual({ changed: true, sessionsEnded: 2 });
    expect(await findActiveSession(deps, a.session.sessionId)).toBeUndefined();
    expect(await findActiveSession(deps, b.session.sessionId)).toBeUndefined();
    await expect(loginWithPassword(deps, { email: 'ada@example.com', password: PASSWORD }, client)).rejects.toMatchObject({ code: 'account_disabled' });
    // Any method: every sign-in ends in issueSession.
    await expect(issueSession(deps, { userId, email: 'ada@example.com', aal: 'aal2', method: 'passkey' })).rejects.toMatchObject({ code: 'account_disabled' });
    // A wrong password still says only that.
    await expect(loginWithPassword(deps, { email: 'ada@example.com', password: 'not the password' }, client)).rejects.toMatchObject({ code: 'invalid_credentials' });
    expect((await userSummary(deps, userId)).disabled).toBe(true);
    expect(listUsers(deps, 'ada', undefined, 1).users[0]?.disabled).toBe(true);
    expect(disableAccount(deps, admin, userId)).toEqual({ changed: false, sessionsEnded: 0 });
    expect(enableAccount(deps, { subject: 'operator-8' }, userId)).toEqual({ changed: true, sessionsEnded: 0 });
    await expect(loginWithPassword(deps, { email: 'ada@example.com', password: PASSWORD }, client)).resolves.toMatchObject({ userId });
    const summary = await userSummary(deps, userId);
    expect(summary).toMatchObject({ disabled: false, accessChangedBy: 'operator-8' });
    const { events } = getStorageStatus(deps);
    expect(events).toMatchObject({ auth_account_disabled: 1, auth_account_enabled: 1 });
  });

  it('a session issued while the disable commits ends too: the second check in issueSession', async () => {
    const { platform, deps } = setup();
    const userId = await account(deps, 'ada@example.com');
    // The disable lands between issueSession's first check and its append.
    const append = platform.events.append.bind(platform.events);
    platform.events.append = (stream, expected, events) => {
      if (stream.startsWith('auth-session-') && events[0]?.eventType === 'auth_session_issued') {
        platform.events.append = append;
        disableAccount(deps, admin, userId);
      }
      return append(stream, expected, events);
    };
    await expect(loginWithPassword(deps, { email: 'ada@example.com', password: PASSWORD }, client)).rejects.toMatchObject({ code: 'account_disabled' });
    expect((await userSummary(deps, userId)).sessions).toEqual([]);
  });

  it('ends a session from before public handles too, which no session list holds', async () => {
    const { platform, deps } = setup();
    const userId = await account(deps, 'ada@example.com');
    // As an older release issued it: no handle, so not in auth_user_sessions.
    const sessionId = 'old-session-id';
    const sessionHash = await sha256Hex(sessionId);
    const now = platform.now();
    platform.events.append(authStreams.session(sessionHash), { tag: 'no-stream' }, [
      authEvent('auth_session_issued', { user_id: userId, email: 'ada@example.com', aal: 'aal1', method: 'password', issued_at: now, expires_at: now + 3_600_000 }),
    ]);
    platform.keyValue.set(authNamespaces.sessionActivity, sessionHash, String(now), 3_600_000n);
    expect(await findActiveSession(deps, sessionId)).toMatchObject({ userId, handle: '' });
    disableAccount(deps, admin, userId);
    expect(await findActiveSession(deps, sessionId)).toBeUndefined();
  });
});

describe('revokeSessionsOf()', () => {
  it('ends one session by its handle, or all; unknown handles are 404; each call is recorded', async () => {
    const { deps } = setup();
    const userId = await account(deps, 'ada@example.com');
    const a = await loginWithPassword(deps, { email: 'ada@example.com', password: PASSWORD }, client);
    const b = await loginWithPassword(deps, { email: 'ada@example.com', password: PASSWORD }, client);
    const handles = (await userSummary(deps, userId)).sessions.map((s) => s.handle);
    await expect(revokeSessionsOf(deps, admin, userId, 'A'.repeat(22))).rejects.toMatchObject({ code: 'not_found' });
    expect(await revokeSessionsOf(deps, admin, userId, handles[0])).toBe(1);
    const left = [await findActiveSession(deps, a.session.sessionId), await findActiveSession(deps, b.session.sessionId)].filter(Boolean);
    expect(left).toHaveLength(1);
    expect(await revokeSessionsOf(deps, admin, userId, undefined)).toBe(1);
    expect(getStorageStatus(deps).events['auth_admin_sessions_revoked']).toBe(2);
  });
});

describe('sendResetLink()', () => {
  it('queues the reset mail "Forgot password?" sends, within its budget', async () => {
    const { platform, deps } = setup();
    const userId = await account(deps, 'ada@example.com');
    await sendResetLink(deps, admin, userId, '192.0.2.9');
    const sent = platform.mail.sent.filter((m) => m.subject === 'Reset your password');
    expect(sent).toHaveLength(1);
    expect(sent[0]?.recipient).toBe('ada@example.com');
    await sendResetLink(deps, admin, userId, '192.0.2.9');
    await sendResetLink(deps, admin, userId, '192.0.2.9');
    await expect(sendResetLink(deps, admin, userId, '192.0.2.9')).rejects.toMatchObject({ code: 'rate_limited' });
    expect(getStorageStatus(deps).events['auth_admin_reset_link_sent']).toBe(3);
  });

  it('a provider account gets the link that sets its first password; one without an address is 409', async () => {
    const { platform, deps } = setup();
    const linked = await linkOrCreateUserForExternalIdentity(deps, { provider: 'provider_a', subject: 's-1', email: 'pat@example.com', emailVerified: true });
    await sendResetLink(deps, admin, linked.userId, '192.0.2.9');
    expect(platform.mail.sent.filter((m) => m.recipient === 'pat@example.com' && m.subject === 'Reset your password')).toHaveLength(1);
    const bare = await linkOrCreateUserForExternalIdentity(deps, { provider: 'provider_b', subject: 'gh-2', email: null, emailVerified: false });
    await expect(sendResetLink(deps, admin, bare.userId, '192.0.2.9')).rejects.toMatchObject({ code: 'conflict' });
  });
});

describe('deleteAccountAsAdmin()', () => {
  it('erases as self-deletion does: no trace of the address, the address registers again; the deletion is recorded', async () => {
    const { platform, deps } = setup();
    const userId = await account(deps, 'ada@example.com');
    await loginWithPassword(deps, { email: 'ada@example.com', password: PASSWORD }, client);
    disableAccount(deps, admin, userId);
    expect(await deleteAccountAsAdmin(deps, admin, userId)).toBeGreaterThan(0);
    const events = platform.events.readAll(0n, 1000).map((e) => `${e.streamId} ${e.payload}`);
    const docs = Object.values(AUTH_COLLECTIONS).flatMap((c) => platform.projections.listDocuments(c, undefined, 1000).map((d) => `${d.id} ${d.body}`));
    expect([...events, ...docs].join('\n')).not.toContain('ada@example.com');
    expect(events.filter((e) => e.includes('"by":"operator-7"'))).toHaveLength(1);
    expect(listUsers(deps, '', undefined, 10).users).toEqual([]);
    await expect(userSummary(deps, userId)).rejects.toMatchObject({ code: 'not_found' });
    expect(await registerWithPassword(deps, { email: 'ada@example.com', password: PASSWORD })).toMatchObject({ created: true });
    expect(getStorageStatus(deps).events['auth_admin_account_deleted']).toBe(1);
  });
});
