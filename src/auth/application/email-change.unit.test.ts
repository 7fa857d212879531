/**
 * Changing the address over the in-memory platform: re-authentication, the link to the new
 * address, the move (one claim at every step, a crash between steps included), the undo, and the
 * erasure of what changes leave.
 */
import { describe, expect, it } from 'vitest';
import { findAccountByEmailHash } from './accounts.ts';
import { moveAddress, ownClaimOf } from './email-move.ts';
import {
  confirmEmailChange,
  deleteAccount,
  findActiveSession,
  linkOrCreateUserForExternalIdentity,
  loginWithPassword,
  pendingEmailChange,
  registerWithPassword,
  requestEmailChange,
  sha256Hex,
  undoEmailChange,
} from './index.ts';
import { authStreams } from './streams.ts';
import { errorCode, linkToken, memoryAuth, ownerOf, signedIn } from './testing/memory-auth.ts';

const CLIENT = '203.0.113.9';
const alice = { email: 'alice@example.com', password: 'correct horse battery' };
const bob = { email: 'bob@example.com', password: 'another long secret' };

describe('requestEmailChange()', () => {
  it('refuses a session without the password or a fresh provider or passkey sign-in, and mails nothing', async () => {
    const { platform, deps } = memoryAuth();
    const session = await signedIn(platform, deps, alice);
    const before = platform.mail.sent.length;
    expect(await errorCode(requestEmailChange(deps, session, 'new@example.com', undefined, CLIENT))).toBe('forbidden');
    expect(await errorCode(requestEmailChange(deps, session, 'new@example.com', 'wrong password!', CLIENT))).toBe('forbidden');
    expect(platform.mail.sent.length).toBe(before);
    expect(await pendingEmailChange(deps, session.userId)).toBeUndefined();
  });

  it('with the password: mails a link to the new address, and nothing moves until it is opened', async () => {
    const { platform, deps } = memoryAuth();
    const session = await signedIn(platform, deps, alice);
    const pending = await requestEmailChange(deps, session, 'New@Example.com', alice.password, CLIENT);
    expect(pending.email).toBe('new@example.com');
    expect((await pendingEmailChange(deps, session.userId))?.email).toBe('new@example.com');
    expect(await ownerOf(platform, alice.email)).toBe(session.userId);
    expect(await ownerOf(platform, 'new@example.com')).toBeUndefined();
    await linkToken(platform, 'new@example.com', '/confirm-email-change');
  });
});

describe('confirmEmailChange()', () => {
  it('moves the claim, keeps the password, verifies the address, mails the old one an undo link; single use', async () => {
    const { platform, deps } = memoryAuth();
    const session = await signedIn(platform, deps, alice);
    await requestEmailChange(deps, session, 'new@example.com', alice.password, CLIENT);
    const token = await linkToken(platform, 'new@example.com', '/confirm-email-change');
    await confirmEmailChange(deps, token, undefined);
    expect(await ownerOf(platform, 'new@example.com')).toBe(session.userId);
    expect(await ownerOf(platform, alice.email)).toBeUndefined();
    expect(findAccountByEmailHash(platform, await sha256Hex('new@example.com'))?.emailVerified).toBe(true);
    // The session now shows the new address; the password signs in with it, not with the old one.
    expect((await findActiveSession(deps, (await loginWithPassword(deps, { email: 'new@example.com', password: alice.password })).session.sessionId))?.email).toBe(
      'new@example.com',
    );
    expect(await errorCode(loginWithPassword(deps, alice))).toBe('invalid_credentials');
    await linkToken(platform, alice.email, '/undo-email-change');
    expect(await errorCode(confirmEmailChange(deps, token, undefined))).toBe('not_found');
    expect(await pendingEmailChange(deps, session.userId)).toBeUndefined();
  });

  it('refuses a link opened in a browser signed in to another account, and the link keeps working', async () => {
    const { platform, deps } = memoryAuth();
    const session = await signedIn(platform, deps, alice);
    const bobSession = await signedIn(platform, deps, bob);
    await requestEmailChange(deps, session, 'new@example.com', alice.password, CLIENT);
    const token = await linkToken(platform, 'new@example.com', '/confirm-email-change');
    expect(await errorCode(confirmEmailChange(deps, token, bobSession))).toBe('forbidden');
    expect(await ownerOf(platform, alice.email)).toBe(session.userId);
    expect(await errorCode(confirmEmailChange(deps, token, session))).toBe('ok');
  });

  it('fails cleanly when another account registered the new address meanwhile: the old claim stays', async () => {
    const { platform, deps } = memoryAuth();
    const session = await signedIn(platform, deps, alice);
    await requestEmailChange(deps, session, 'new@example.com', alice.password, CLIENT);
    const token = await linkToken(platform, 'new@example.com', '/confirm-email-change');
    await registerWithPassword(deps, { email: 'new@example.com', password: 'a third long secret' });
    expect(await errorCode(confirmEmailChange(deps, token, undefined))).toBe('conflict');
    expect(await ownerOf(platform, alice.email)).toBe(session.userId);
    expect(await ownerOf(platform, 'new@example.com')).not.toBe(session.userId);
    expect(await errorCode(loginWithPassword(deps, alice))).toBe('ok');
  });

  it('a taken old address cannot be registered by another while it is claimed; it can once it is released', async () => {
    const { platform, deps } = memoryAuth();
    const session = await signedIn(platform, deps, alice);
    await registerWithPassword(deps, { email: alice.email, password: 'an intruder password' });
    expect(await ownerOf(platform, alice.email)).toBe(session.userId);
    await requestEmailChange(deps, session, 'new@example.com', alice.password, CLIENT);
    await confirmEmailChange(deps, await linkToken(platform, 'new@example.com', '/confirm-email-change'), undefined);
    expect((await registerWithPassword(deps, { email: alice.email, password: 'a newcomer password' })).created).toBe(true);
  });
});

describe('moveAddress(): one claim at every step', () => {
  it('stopped after the new claim, the old one counts and the new one counts for nobody; a later move takes it up', async () => {
    const { platform, deps } = memoryAuth();
    const session = await signedIn(platform, deps, alice);
    const newHash = await sha256Hex('new@example.com');
    // The new claim is written, then the store fails the record's append: the move stops there.
    const append = platform.events.append.bind(platform.events);
    platform.events.append = (stream, expected, events) => {
      if (stream === authStreams.address(session.userId)) throw new Error('host stopped');
      return append(stream, expected, events);
    };
    const { recordRevision, own } = await ownClaimOf(deps, session.userId);
    expect(() => moveAddress(deps, session.userId, own, { email: 'new@example.com', emailHash: newHash }, 'change', recordRevision)).toThrow();
    platform.events.append = append;
    expect(await ownerOf(platform, alice.email)).toBe(session.userId);
    expect(await ownerOf(platform, 'new@example.com')).toBeUndefined();
    // The same user moving there again takes up the claim it left.
    await requestEmailChange(deps, session, 'new@example.com', alice.password, CLIENT);
    await confirmEmailChange(deps, await linkToken(platform, 'new@example.com', '/confirm-email-change'), undefined);
    expect(await ownerOf(platform, 'new@example.com')).toBe(session.userId);
    expect(await ownerOf(platform, alice.email)).toBeUndefined();
  });

  it('stopped after the record, before the old stream is removed: only the new claim counts', async () => {
    const { platform, deps } = memoryAuth();
    const session = await signedIn(platform, deps, alice);
    const remove = platform.events.removeStream.bind(platform.events);
    platform.events.removeStream = () => {
      throw new Error('host stopped');
    };
    const { recordRevision, own } = await ownClaimOf(deps, session.userId);
    moveAddress(deps, session.userId, own, { email: 'new@example.com', emailHash: await sha256Hex('new@example.com') }, 'change', recordRevision);
    platform.events.removeStream = remove;
    expect(platform.events.readStream(authStreams.email(await sha256Hex(alice.email)), { direction: 'forward', limit: 5 })).not.toHaveLength(0);
    expect(await ownerOf(platform, alice.email)).toBeUndefined();
    expect(await ownerOf(platform, 'new@example.com')).toBe(session.userId);
    expect(await errorCode(loginWithPassword(deps, alice))).toBe('invalid_credentials');
  });
});

describe('undoEmailChange()', () => {
  it('moves the claim back and ends every session', async () => {
    const { platform, deps } = memoryAuth();
    const session = await signedIn(platform, deps, alice);
    await requestEmailChange(deps, session, 'new@example.com', alice.password, CLIENT);
    await confirmEmailChange(deps, await linkToken(platform, 'new@example.com', '/confirm-email-change'), undefined);
    const undo = await linkToken(platform, alice.email, '/undo-email-change');
    const done = await undoEmailChange(deps, undo, undefined);
    expect(done).toMatchObject({ restored: true });
    expect(done.sessionsEnded).toBeGreaterThanOrEqual(1);
    expect(await findActiveSession(deps, undefined)).toBeUndefined();
    expect(await ownerOf(platform, alice.email)).toBe(session.userId);
    expect(await ownerOf(platform, 'new@example.com')).toBeUndefined();
    expect(await errorCode(loginWithPassword(deps, alice))).toBe('ok');
    expect(await errorCode(undoEmailChange(deps, undo, undefined))).toBe('not_found');
  });

  it('when the old address was registered meanwhile: the sessions end, the account keeps its new address', async () => {
    const { platform, deps } = memoryAuth();
    const session = await signedIn(platform, deps, alice);
    await requestEmailChange(deps, session, 'new@example.com', alice.password, CLIENT);
    await confirmEmailChange(deps, await linkToken(platform, 'new@example.com', '/confirm-email-change'), undefined);
    const undo = await linkToken(platform, alice.email, '/undo-email-change');
    await registerWithPassword(deps, { email: alice.email, password: 'a newcomer password' });
    const done = await undoEmailChange(deps, undo, undefined);
    expect(done.restored).toBe(false);
    expect(await ownerOf(platform, 'new@example.com')).toBe(session.userId);
    expect(await ownerOf(platform, alice.email)).not.toBe(session.userId);
  });
});

describe('provider accounts and erasure', () => {
  it('a provider account changes its address after a fresh sign-in; the provider still signs in to it', async () => {
    const { platform, deps } = memoryAuth();
    const identity = { provider: 'provider_a', subject: 'sub-1', email: 'pat@example.com', emailVerified: true };
    const linked = await linkOrCreateUserForExternalIdentity(deps, identity);
    platform.respond();
    const { issueSession } = await import('./sessions.ts');
    const issued = await issueSession(deps, { userId: linked.userId, email: linked.email, aal: 'aal1', method: 'oauth:provider_a' });
    const session = (await findActiveSession(deps, issued.sessionId))!;
    await requestEmailChange(deps, session, 'pat.new@example.com', undefined, CLIENT);
    await confirmEmailChange(deps, await linkToken(platform, 'pat.new@example.com', '/confirm-email-change'), undefined);
    expect(await ownerOf(platform, 'pat.new@example.com')).toBe(linked.userId);
    expect((await linkOrCreateUserForExternalIdentity(deps, identity)).userId).toBe(linked.userId);
    // Past the 5 minutes a provider session alone changes nothing.
    platform.clock.advance(5 * 60_000 + 1);
    expect(await errorCode(requestEmailChange(deps, (await findActiveSession(deps, issued.sessionId))!, 'x@example.com', undefined, CLIENT))).toBe('forbidden');
  });

  it('deleting the account removes the moved claim, a pending change, the address record and the undo records', async () => {
    const { platform, deps } = memoryAuth();
    const session = await signedIn(platform, deps, alice);
    await requestEmailChange(deps, session, 'new@example.com', alice.password, CLIENT);
    await confirmEmailChange(deps, await linkToken(platform, 'new@example.com', '/confirm-email-change'), undefined);
    const current = (await findActiveSession(deps, (await loginWithPassword(deps, { email: 'new@example.com', password: alice.password })).session.sessionId))!;
    await requestEmailChange(deps, current, 'third@example.com', alice.password, CLIENT);
    platform.respond();
    await deleteAccount(deps, current, { password: alice.password, client: CLIENT });
    expect(platform.events.readStream(authStreams.address(session.userId), { direction: 'forward', limit: 5 })).toHaveLength(0);
    expect(await ownerOf(platform, 'new@example.com')).toBeUndefined();
    const kv = platform.keyValue.dump();
    expect(kv).not.toContain(session.userId);
    expect(kv).not.toContain('new@example.com');
    expect(kv).not.toContain('third@example.com');
    expect((await registerWithPassword(deps, { email: 'new@example.com', password: 'a newcomer password' })).created).toBe(true);
  });

  it('deleting the account removes the claim of a move stopped after its first append, which nothing else names', async () => {
    const { platform, deps } = memoryAuth();
    const session = await signedIn(platform, deps, alice);
    await requestEmailChange(deps, session, 'new@example.com', alice.password, CLIENT);
    const token = await linkToken(platform, 'new@example.com', '/confirm-email-change');
    const append = platform.events.append.bind(platform.events);
    platform.events.append = (stream, expected, events) => {
      if (stream === authStreams.address(session.userId)) throw new Error('host stopped');
      return append(stream, expected, events);
    };
    expect(await errorCode(confirmEmailChange(deps, token, undefined))).not.toBe('ok');
    platform.events.append = append;
    const newStream = authStreams.email(await sha256Hex('new@example.com'));
    expect(platform.events.readStream(newStream, { direction: 'forward', limit: 5 })).toHaveLength(1);
    platform.respond();
    await deleteAccount(deps, session, { password: alice.password, client: CLIENT });
    expect(platform.events.readStream(newStream, { direction: 'forward', limit: 5 })).toHaveLength(0);
    expect(platform.keyValue.dump()).not.toContain(await sha256Hex('new@example.com'));
    expect(platform.keyValue.dump()).not.toContain(session.userId);
  });

  it('deleting the account leaves an old address someone registered since, with its links, to its new owner', async () => {
    const { platform, deps } = memoryAuth();
    const session = await signedIn(platform, deps, alice);
    await requestEmailChange(deps, session, 'new@example.com', alice.password, CLIENT);
    await confirmEmailChange(deps, await linkToken(platform, 'new@example.com', '/confirm-email-change'), undefined);
    const newcomer = await registerWithPassword(deps, { email: alice.email, password: 'a newcomer password' });
    platform.respond();
    const verifyLinks = () => platform.keyValue.dump().split('auth-mail-link\\u0000verify:').length;
    const linksBefore = verifyLinks();
    const current = (await findActiveSession(deps, (await loginWithPassword(deps, { email: 'new@example.com', password: alice.password })).session.sessionId))!;
    await deleteAccount(deps, current, { password: alice.password, client: CLIENT });
    expect(newcomer.created && (await ownerOf(platform, alice.email)) === newcomer.userId).toBe(true);
    expect(await errorCode(loginWithPassword(deps, { email: alice.email, password: 'a newcomer password' }))).toBe('ok');
    expect(linksBefore).toBeGreaterThan(1);
    expect(verifyLinks()).toBe(linksBefore);
  });
});
