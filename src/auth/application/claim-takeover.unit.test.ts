/**
 * Taking over a claim that counts for nobody, over the in-memory platform: a move stopped after its
 * first append leaves the new address claimed for nobody; registration, a provider sign-in and
 * another account's move then take it over. The races are interleaved by hand, append by append:
 * the holder's record append first (the takeover answers `taken`), the release first (the holder's
 * move is refused with `conflict`), and the holder taking up its claim between the release and the
 * takeover's own append (that append fails; `taken`). And a takeover landing between the holder's
 * read and its removal of the stream (its deletion, a move's step 3): the removal, at the revision
 * read, fails and the new claim stays.
 */
import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.ts';
import type { ExpectedRevision, NewEvent } from '../../platform/ports.ts';
import type { MemoryPlatform } from '../../platform/testing/memory-platform.ts';
import { findAccountByEmailHash, readClaim } from './accounts.ts';
import { readAddressRecord } from './email-address.ts';
import { claimAddress } from './claim-takeover.ts';
import { moveAddress, ownClaimOf } from './email-move.ts';
import { authEvent } from './event-codec.ts';
import {
  confirmEmailChange,
  deleteAccount,
  linkOrCreateUserForExternalIdentity,
  loginWithPassword,
  registerWithPassword,
  requestEmailChange,
  sha256Hex,
  type AuthDeps,
} from './index.ts';
import { authStreams } from './streams.ts';
import { memoryAuth, ownerOf, signedIn } from './testing/memory-auth.ts';

const CLIENT = '203.0.113.9';
const alice = { email: 'alice@example.com', password: 'correct horse battery' };
const bob = { email: 'bob@example.com', password: 'another long secret' };
const NEW = 'new@example.com';

const failure = (run: () => unknown) => {
  try {
    run();
    return 'ok';
  } catch (error) {
    return error instanceof AppError ? error.code : String(error);
  }
};

type Append = (stream: string, expected: ExpectedRevision, events: NewEvent[]) => unknown;
/** Runs `before` once, just before the first append that `matches`. */
function beforeAppend(platform: MemoryPlatform, matches: (stream: string, events: NewEvent[]) => boolean, before: () => void): void {
  const append = platform.events.append.bind(platform.events);
  let done = false;
  platform.events.append = (stream, expected, events) => {
    if (!done && matches(stream, events)) {
      done = true;
      before();
    }
    return append(stream, expected, events);
  };
}

/** Alice's move to NEW stops after step 1; returns that move's step 2, held back, to replay. */
async function stoppedMove(platform: MemoryPlatform, deps: AuthDeps, userId: string): Promise<() => void> {
  const append = platform.events.append.bind(platform.events);
  let held: Parameters<Append> | undefined;
  platform.events.append = (stream, expected, events) => {
    if (stream !== authStreams.address(userId)) return append(stream, expected, events);
    held = [stream, expected, events];
    throw new Error('host stopped');
  };
  const { recordRevision, own } = await ownClaimOf(deps, userId);
  const to = { email: NEW, emailHash: await sha256Hex(NEW) };
  expect(() => moveAddress(deps, userId, own, to, 'change', recordRevision)).toThrow();
  platform.events.append = append;
  return () => append(...held!);
}

const streamUsers = async (platform: MemoryPlatform, email: string) =>
  platform.events.readStream(authStreams.email(await sha256Hex(email)), { direction: 'forward', limit: 50 }).map((e) => (JSON.parse(e.payload) as { user_id: string }).user_id);

const moveTo = async (deps: AuthDeps, userId: string, email: string) => {
  const { recordRevision, own } = await ownClaimOf(deps, userId);
  const to = { email, emailHash: await sha256Hex(email) };
  return () => moveAddress(deps, userId, own, to, 'change', recordRevision);
};

describe('claimAddress(): a claim that counts for nobody', () => {
  it('is taken over by a registration; the holder keeps its address and cannot move there any more', async () => {
    const { platform, deps } = memoryAuth();
    const session = await signedIn(platform, deps, alice);
    await stoppedMove(platform, deps, session.userId);
    expect(await ownerOf(platform, NEW)).toBeUndefined();
    const taker = await registerWithPassword(deps, { email: NEW, password: 'a newcomer password' });
    if (!taker.created) throw new Error('not created');
    expect(await ownerOf(platform, NEW)).toBe(taker.userId);
    expect((await loginWithPassword(deps, { email: NEW, password: 'a newcomer password' })).userId).toBe(taker.userId);
    expect(await loginWithPassword(deps, { email: NEW, password: alice.password }).catch((error: AppError) => error.code)).toBe('invalid_credentials');
    // The former claim's events are gone from the stream; the holder's record holds no address of it.
    expect(await streamUsers(platform, NEW)).toEqual([taker.userId]);
    const record = platform.events.readStream(authStreams.address(session.userId), { direction: 'forward', limit: 10 });
    expect(record.map((e) => e.eventType)).toEqual(['auth_email_claim_released']);
    expect(record[0]!.payload).not.toContain('new');
    expect(record[0]!.payload).not.toContain(await sha256Hex(NEW));
    expect(await ownerOf(platform, alice.email)).toBe(session.userId);
    expect((await loginWithPassword(deps, alice)).userId).toBe(session.userId);
    // Nor does the holder's list of claims in flight keep the taker's address.
    expect(platform.keyValue.dump()).not.toContain(await sha256Hex(NEW));
    expect(failure(await moveTo(deps, session.userId, NEW))).toBe('conflict');
    expect(await ownerOf(platform, NEW)).toBe(taker.userId);
  });

  it('is taken over by a provider sign-in creating an account', async () => {
    const { platform, deps } = memoryAuth();
    const session = await signedIn(platform, deps, alice);
    await stoppedMove(platform, deps, session.userId);
    const linked = await linkOrCreateUserForExternalIdentity(deps, { provider: 'provider_a', subject: 'sub-1', email: NEW, emailVerified: true });
    expect(linked.created).toBe(true);
    expect(await ownerOf(platform, NEW)).toBe(linked.userId);
    expect(findAccountByEmailHash(platform, await sha256Hex(NEW))?.emailVerified).toBe(true);
    expect(await ownerOf(platform, alice.email)).toBe(session.userId);
  });

  it("is taken over by another account's address change (its step 1)", async () => {
    const { platform, deps } = memoryAuth();
    const session = await signedIn(platform, deps, alice);
    const bobSession = await signedIn(platform, deps, bob);
    await stoppedMove(platform, deps, session.userId);
    await requestEmailChange(deps, bobSession, NEW, bob.password, CLIENT);
    await platform.mail.deliver();
    const mail = platform.mail.delivered.filter((m) => m.recipient === NEW).at(-1)!;
    await confirmEmailChange(deps, /token=([A-Za-z0-9_.-]+)/.exec(mail.text)![1]!, undefined);
    expect(await ownerOf(platform, NEW)).toBe(bobSession.userId);
    expect(await ownerOf(platform, bob.email)).toBeUndefined();
    expect(await ownerOf(platform, alice.email)).toBe(session.userId);
    expect(await streamUsers(platform, NEW)).toEqual([bobSession.userId]);
  });

  it('a claim that counts is not taken over; the old claim a move could not remove is', async () => {
    const { platform, deps } = memoryAuth();
    const session = await signedIn(platform, deps, alice);
    expect((await registerWithPassword(deps, { email: alice.email, password: 'an intruder password' })).created).toBe(false);
    // The move's step 3 (the old stream's removal) fails: the old claim counts for nobody.
    const remove = platform.events.removeStream.bind(platform.events);
    platform.events.removeStream = () => {
      throw new Error('host stopped');
    };
    (await moveTo(deps, session.userId, NEW))();
    platform.events.removeStream = remove;
    expect(await ownerOf(platform, alice.email)).toBeUndefined();
    const newcomer = await registerWithPassword(deps, { email: alice.email, password: 'a newcomer password' });
    if (!newcomer.created) throw new Error('not created');
    expect(await ownerOf(platform, alice.email)).toBe(newcomer.userId);
    expect(await streamUsers(platform, alice.email)).toEqual([newcomer.userId]);
    expect(await ownerOf(platform, NEW)).toBe(session.userId);
    expect((await loginWithPassword(deps, { email: NEW, password: alice.password })).userId).toBe(session.userId);
  });
});

/** Runs `before` once, just before the first removal of `stream` (after the remover read it). */
function beforeRemoval(platform: MemoryPlatform, stream: string, before: () => void): void {
  const remove = platform.events.removeStream.bind(platform.events);
  let done = false;
  platform.events.removeStream = (streamId, expected) => {
    if (!done && streamId === stream) {
      done = true;
      before();
    }
    return remove(streamId, expected);
  };
}

/** A registration's claim-starting event for `email`, by a new user id. */
const registration = (platform: MemoryPlatform, email: string) => {
  const userId = crypto.randomUUID();
  return { userId, start: authEvent('auth_password_user_registered', { user_id: userId, email, password_hash: platform.passwords.hash('a newcomer password') }) };
};

describe('claimAddress(): races with the holder’s removals, which remove at the revision they read', () => {
  it('a takeover between the deletion’s read and its removal keeps the new claim', async () => {
    const { platform, deps } = memoryAuth();
    const session = await signedIn(platform, deps, alice);
    await stoppedMove(platform, deps, session.userId);
    const newHash = await sha256Hex(NEW);
    const taker = registration(platform, NEW);
    let outcome: string | undefined;
    beforeRemoval(platform, authStreams.email(newHash), () => {
      outcome = claimAddress(deps, newHash, taker.userId, taker.start);
    });
    await deleteAccount(deps, session, { password: alice.password, client: CLIENT });
    expect(outcome).toBe('claimed');
    expect(await ownerOf(platform, NEW)).toBe(taker.userId);
    expect(await streamUsers(platform, NEW)).toEqual([taker.userId]);
    expect((await loginWithPassword(deps, { email: NEW, password: 'a newcomer password' })).userId).toBe(taker.userId);
    // The deleted account's own address is gone all the same.
    expect(platform.events.readStream(authStreams.email(await sha256Hex(alice.email)), { direction: 'forward', limit: 5 })).toHaveLength(0);
  });

  it('a takeover between a move’s step 3 read and its removal keeps the new claim; no password crosses over', async () => {
    const { platform, deps } = memoryAuth();
    const session = await signedIn(platform, deps, alice);
    const oldHash = await sha256Hex(alice.email);
    const taker = registration(platform, alice.email);
    let outcome: string | undefined;
    beforeRemoval(platform, authStreams.email(oldHash), () => {
      outcome = claimAddress(deps, oldHash, taker.userId, taker.start);
    });
    expect(failure(await moveTo(deps, session.userId, NEW))).toBe('ok');
    expect(outcome).toBe('claimed');
    expect(await ownerOf(platform, alice.email)).toBe(taker.userId);
    expect(await streamUsers(platform, alice.email)).toEqual([taker.userId]);
    expect(await ownerOf(platform, NEW)).toBe(session.userId);
    expect((await loginWithPassword(deps, { email: NEW, password: alice.password })).userId).toBe(session.userId);
    expect(await loginWithPassword(deps, { email: NEW, password: 'a newcomer password' }).catch((error: AppError) => error.code)).toBe('invalid_credentials');
  });
});

describe('claimAddress(): races with the holder’s move, append by append', () => {
  it('the holder’s record append first: the takeover’s release fails on the revision, it re-reads, `taken`', async () => {
    const { platform, deps } = memoryAuth();
    const session = await signedIn(platform, deps, alice);
    const step2 = await stoppedMove(platform, deps, session.userId);
    // The taker has read the claim and the record; the holder's step 2 lands before its release.
    beforeAppend(platform, (stream, events) => stream === authStreams.address(session.userId) && events[0]!.eventType === 'auth_email_claim_released', step2);
    const taker = await registerWithPassword(deps, { email: NEW, password: 'a newcomer password' });
    expect(taker.created).toBe(false);
    expect(await ownerOf(platform, NEW)).toBe(session.userId);
    expect((await loginWithPassword(deps, { email: NEW, password: alice.password })).userId).toBe(session.userId);
    expect(await streamUsers(platform, NEW)).toEqual([session.userId]);
  });

  it('the release first: the holder’s move fails its record append (`conflict`), its old address stays', async () => {
    const { platform, deps } = memoryAuth();
    const session = await signedIn(platform, deps, alice);
    const newHash = await sha256Hex(NEW);
    const takerId = crypto.randomUUID();
    const start = authEvent('auth_password_user_registered', { user_id: takerId, email: NEW, password_hash: platform.passwords.hash('a newcomer password') });
    // The holder's step 1 has claimed NEW; the takeover runs whole before its step 2.
    let outcome: string | undefined;
    beforeAppend(
      platform,
      (stream) => stream === authStreams.address(session.userId),
      () => {
        outcome = claimAddress(deps, newHash, takerId, start);
      },
    );
    expect(failure(await moveTo(deps, session.userId, NEW))).toBe('conflict');
    expect(outcome).toBe('claimed');
    expect(await ownerOf(platform, NEW)).toBe(takerId);
    expect(await ownerOf(platform, alice.email)).toBe(session.userId);
    expect((await loginWithPassword(deps, alice)).userId).toBe(session.userId);
  });

  it('the holder takes its claim up between the release and the takeover’s append: that append fails, `taken`', async () => {
    const { platform, deps } = memoryAuth();
    const session = await signedIn(platform, deps, alice);
    await stoppedMove(platform, deps, session.userId);
    const newHash = await sha256Hex(NEW);
    const oldHash = await sha256Hex(alice.email);
    // After the release (the record's revision moved), the holder's whole move runs again.
    const append = platform.events.append.bind(platform.events);
    let released = false;
    let moved: string | undefined;
    platform.events.append = (stream, expected, events) => {
      if (released && moved === undefined && stream === authStreams.email(newHash)) {
        const own = { email: alice.email, emailHash: oldHash, account: readClaim(platform, oldHash)!.account };
        const recordRevision = readAddressRecord(platform, session.userId).revision;
        moved = 'running';
        moved = failure(() => moveAddress(deps, session.userId, own, { email: NEW, emailHash: newHash }, 'change', recordRevision));
      }
      const recorded = append(stream, expected, events);
      if (events[0]!.eventType === 'auth_email_claim_released') released = true;
      return recorded;
    };
    const taker = await registerWithPassword(deps, { email: NEW, password: 'a newcomer password' });
    expect(moved).toBe('ok');
    expect(taker.created).toBe(false);
    expect(await ownerOf(platform, NEW)).toBe(session.userId);
    expect(await ownerOf(platform, alice.email)).toBeUndefined();
    expect((await loginWithPassword(deps, { email: NEW, password: alice.password })).userId).toBe(session.userId);
  });
});

describe('erasure after a takeover', () => {
  it('deleting the taker frees the address; deleting the former holder leaves nothing of its record', async () => {
    const { platform, deps } = memoryAuth();
    const session = await signedIn(platform, deps, alice);
    await stoppedMove(platform, deps, session.userId);
    const taker = await signedIn(platform, deps, { email: NEW, password: 'a newcomer password' });
    await deleteAccount(deps, taker, { password: 'a newcomer password', client: CLIENT });
    expect(platform.events.readStream(authStreams.email(await sha256Hex(NEW)), { direction: 'forward', limit: 5 })).toHaveLength(0);
    await deleteAccount(deps, session, { password: alice.password, client: CLIENT });
    expect(platform.events.readStream(authStreams.address(session.userId), { direction: 'forward', limit: 5 })).toHaveLength(0);
    expect((await registerWithPassword(deps, { email: NEW, password: 'a third long secret' })).created).toBe(true);
  });
});
