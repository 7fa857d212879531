/**
 * Moving an account's address claim from one email stream to another, so that at every moment
 * exactly one address counts as the account's (email-address.ts says how readers decide):
 *
 * 1. claim the new address (claim-takeover.ts), its hash first listed for deletion to find a claim
 *    that no record names (claims-in-flight.ts): `auth_email_claimed` at no-stream, carrying the
 *    user id and the current password hash. Another account's claim that counts refuses the move
 *    (`taken`): nothing changed, the old claim stands; another account's claim that counts for
 *    nobody is taken over. A claim there that this user left behind (a move that stopped after
 *    step 1) is taken up again: the same event appended at the stream's exact revision, so a
 *    takeover that read the stream before fails;
 * 2. append `auth_email_changed` to the user's address record at its exact revision: from here on
 *    the new claim counts and the old one does not. A concurrent move of the same user refuses
 *    this one (`conflict`);
 * 3. carry over a password changed on the old claim since the move read it, then remove the old
 *    stream at the revision read (claim-removal.ts), which frees its address for anyone to
 *    register. A claim appended there since (another account's takeover) fails the removal and
 *    stays.
 *
 * Stopped after step 1, the old claim still counts; the new stream counts for nobody until this
 * user moves there again, another account registers that address, signs in with it at a provider
 * or moves to it (each takes the claim over), or the account is deleted (the list of claims in
 * flight names it). Stopped after step 2, the new claim counts; the old stream counts for nobody
 * until another account takes it over (claim-takeover.ts) or the account is deleted.
 */
import { AppError, isStoreConflict } from '../../errors.ts';
import type { EmailChanged, EmailClaimed, PasswordChanged } from '../domain/events.ts';
import { readClaim, type Account, type Claim } from './accounts.ts';
import { removeClaim } from './claim-removal.ts';
import { claimAddress } from './claim-takeover.ts';
import { forgetClaimInFlight, noteClaimInFlight } from './claims-in-flight.ts';
import type { AuthDeps } from './deps.ts';
import { readAddressRecord } from './email-address.ts';
import { authEvent } from './event-codec.ts';
import { eraseOwnMailLinks } from './mail-links.ts';
import { AUTH_COLLECTIONS, projectAfterResponse, readAuthDocument, runAuthProjectionQuietly, type UserDocument } from './projection.ts';
import { sha256Hex } from './secrets.ts';
import { authStreams } from './streams.ts';

export interface AddressEnd {
  email: string;
  emailHash: string;
}

/** Why a move did not happen: the address is another account's, or the account changed meanwhile. */
export class MoveRefused extends AppError {
  readonly taken: boolean;
  constructor(taken: boolean) {
    super('conflict', taken ? 'this address belongs to another account' : 'the account changed meanwhile: try again');
    this.taken = taken;
  }
}

/** Step 1 (see above). */
function claimNewAddress(deps: AuthDeps, userId: string, from: Account | undefined, fromHash: string | null, to: AddressEnd, via: EmailClaimed['via']): void {
  const data: EmailClaimed = { user_id: userId, email: to.email, password_hash: from?.passwordHash ?? null, from_hash: fromHash, via };
  if (claimAddress(deps, to.emailHash, userId, authEvent('auth_email_claimed', data)) === 'taken') throw new MoveRefused(true);
}

/**
 * Moves `userId`'s claim from `from` (the account's own claim, read at its revision, or undefined
 * when it owns no address) to `to`; `recordRevision` is the address record's revision the caller
 * read its state at. Throws MoveRefused (409) when it does not happen.
 */
export function moveAddress(
  deps: AuthDeps,
  userId: string,
  from: (AddressEnd & { account: Account }) | undefined,
  to: AddressEnd,
  via: EmailChanged['via'],
  recordRevision: bigint | undefined,
): void {
  const { events, now } = deps.platform;
  try {
    noteClaimInFlight(deps, userId, to.emailHash);
    try {
      claimNewAddress(deps, userId, from?.account, from?.emailHash ?? null, to, via);
    } catch (error) {
      // Taken: another account's claim holds the address, none of this user's.
      if (error instanceof MoveRefused && error.taken) forgetClaimInFlight(deps, userId, to.emailHash);
      throw error;
    }
    const changed: EmailChanged = { user_id: userId, email: to.email, from_hash: from?.emailHash ?? null, to_hash: to.emailHash, via, changed_at: now() };
    try {
      events.append(authStreams.address(userId), recordRevision === undefined ? { tag: 'no-stream' } : { tag: 'exact', val: recordRevision }, [
        authEvent('auth_email_changed', changed),
      ]);
    } catch (error) {
      if (isStoreConflict(error)) throw new MoveRefused(false);
      throw error;
    }
    projectAfterResponse(deps.platform);
    forgetQuietly(deps, userId, to.emailHash);
    if (from) releaseOldClaim(deps, userId, from, to);
  } catch (error) {
    if (error instanceof MoveRefused) throw error;
    throw AppError.fromStore(error);
  }
}

/** The record names the new claim now: the list need not. A failure leaves the name there for deletion to check. */
function forgetQuietly(deps: AuthDeps, userId: string, emailHash: string): void {
  try {
    forgetClaimInFlight(deps, userId, emailHash);
  } catch (error) {
    deps.platform.logger.log('warn', 'a claimed address stays listed for now', { code: 'auth_email_claim_list_failed', user_id: userId, error: String(error) });
  }
}

/**
 * Step 3 (see above): the old claim, read again, is removed at the revision read, after a password
 * set on it since the move read it went to the new claim. A claim appended there since (another
 * account's takeover, this account's move back) makes the removal fail and stays: the old claim
 * is no longer the stream's newest.
 */
function releaseOldClaim(deps: AuthDeps, userId: string, from: AddressEnd & { account: Account }, to: AddressEnd): void {
  let carried = from.account.passwordRevision;
  let carrying = false;
  const sameClaim = (old: Claim) => old.account.userId === userId && old.start <= from.account.revision;
  try {
    removeClaim(deps, from.emailHash, sameClaim, (old) => {
      if (old.account.passwordRevision === carried) return;
      carrying = true;
      carryPassword(deps, userId, old.account.passwordHash, to);
      carried = old.account.passwordRevision;
      carrying = false;
    });
    // The old address's links (a verification, a reset) name a claim that no longer counts; a
    // taker's own links for it stay.
    eraseOwnMailLinks(deps, from.emailHash, userId);
  } catch (error) {
    // A password that could not be carried fails the request, as the move's own steps do.
    if (carrying) throw error;
    // The move has happened; the old stream counts for nobody and goes with the account's erasure.
    deps.platform.logger.log('warn', 'the old address claim could not be removed yet', { code: 'auth_email_release_failed', user_id: userId, error: String(error) });
  }
}

/** A password set on the old claim after the move read it goes to the new claim. */
function carryPassword(deps: AuthDeps, userId: string, passwordHash: string | undefined, to: AddressEnd): void {
  if (passwordHash === undefined) return;
  const now = readClaim(deps.platform, to.emailHash);
  if (!now) return;
  const changed: PasswordChanged = { user_id: userId, password_hash: passwordHash, via: 'change' };
  deps.platform.events.append(authStreams.email(to.emailHash), { tag: 'exact', val: now.account.revision }, [authEvent('auth_password_changed', changed)]);
}

/**
 * The address record's revision and the account's own claim now (undefined: it owns no address):
 * the record's newest address, else the one it registered with (the users read model).
 */
export async function ownClaimOf(deps: AuthDeps, userId: string): Promise<{ recordRevision: bigint | undefined; own: (AddressEnd & { account: Account }) | undefined }> {
  const { platform } = deps;
  const record = readAddressRecord(platform, userId);
  let hash = record.current?.to_hash;
  if (hash === undefined) {
    runAuthProjectionQuietly(platform);
    const doc = platform.projections.getDocument({ collection: AUTH_COLLECTIONS.users, id: userId });
    const email = doc ? readAuthDocument<UserDocument>(AUTH_COLLECTIONS.users, doc.body).email : null;
    if (email !== null) hash = await sha256Hex(email);
  }
  const claim = hash === undefined ? undefined : readClaim(platform, hash);
  const counts = hash !== undefined && claim !== undefined && claim.account.userId === userId && (record.current !== undefined || !claim.moved);
  return { recordRevision: record.revision, own: counts ? { email: claim.account.email, emailHash: hash!, account: claim.account } : undefined };
}
