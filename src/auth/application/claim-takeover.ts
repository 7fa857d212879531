/**
 * Claiming an address whose stream another account holds with a claim that counts for nobody: a
 * move of that account's that stopped after its first append (the new address claimed, its
 * address record not yet changed), or the old claim a move left (email-move.ts), its step 3
 * not done yet or failed. Registration, a provider sign-in creating an account and a move's first
 * step all claim through here, so such a claim keeps its address from nobody.
 *
 * 1. the claim-starting event at no-stream: a free address is claimed;
 * 2. else the stream's claim is read with its holder's address record. A claim that counts keeps
 *    the address (`taken`); the caller's own claim (a move taking up what it left) gets the event
 *    appended at the stream's exact revision;
 * 3. another account's claim that counts for nobody: `auth_email_claim_released` is appended to
 *    THAT account's address record at the exact revision it was read at, then the event to the
 *    email stream at the exact revision its claim was read at; the newest claim-starting event is
 *    the one that holds the address (accounts.ts). The events before it (the former claim's: its
 *    user id, password hash) are then dropped (`truncate-before`), and the address off the former
 *    holder's list of claims in flight (claims-in-flight.ts).
 *
 * Why it is race-free across hosts: the holder's claim counts only once its move appends to its
 * record at the revision the move read. If that append came first, step 3's release fails on the
 * revision and the next round reads the claim counting: `taken`. If the release came first, that
 * move fails (`conflict`, nothing half-done: its old claim still counts). A move of the holder's
 * that reads the record after the release must take up its claim by appending to the email stream
 * (step 2), which makes step 3's exact-revision append fail. Two takers: one release or one append
 * wins, the other re-reads. Every lost race is a new round, at most ROUNDS of them. The holder's
 * own removals of the stream (its deletion, a move's step 3) remove it at the revision they read
 * it at (claim-removal.ts): a takeover landing after that read makes the removal fail, and the
 * stream, read again, is the taker's and stays. A removal landing first makes this append fail, and
 * the next round claims the address free.
 */
import { isStoreConflict } from '../../errors.ts';
import type { NewEvent } from '../../platform/ports.ts';
import type { EmailClaimReleased } from '../domain/events.ts';
import { readClaim } from './accounts.ts';
import { forgetClaimInFlight } from './claims-in-flight.ts';
import type { AuthDeps } from './deps.ts';
import { countsBy, readAddressRecord } from './email-address.ts';
import { authEvent } from './event-codec.ts';
import { authStreams } from './streams.ts';

/** Rounds of lost races before giving up (each needs another writer's append in between). */
const ROUNDS = 5;

/** `claimed`: the stream holds `start` now; `taken`: a claim that counts holds the address. */
export type ClaimOutcome = 'claimed' | 'taken';

/** Appends `events` at `expected`; false when another append got there first. */
function appendIfFirst(deps: AuthDeps, stream: string, expected: bigint | undefined, events: NewEvent[]): boolean {
  try {
    deps.platform.events.append(stream, expected === undefined ? { tag: 'no-stream' } : { tag: 'exact', val: expected }, events);
    return true;
  } catch (error) {
    if (isStoreConflict(error)) return false;
    throw error;
  }
}

/** The former claim's events go: they are not the new holder's. A failure is logged; readers skip them. */
function dropEarlierClaim(deps: AuthDeps, stream: string, start: bigint): void {
  try {
    deps.platform.events.truncateBefore(stream, start);
  } catch (error) {
    deps.platform.logger.log('warn', 'a taken-over claim keeps its former events for now', { code: 'auth_email_takeover_trim_failed', error: String(error) });
  }
}

/**
 * Claims `emailHash` for `userId` with `start`, its claim-starting event (see above). Store
 * failures propagate; `taken` also after ROUNDS lost races.
 */
export function claimAddress(deps: AuthDeps, emailHash: string, userId: string, start: NewEvent): ClaimOutcome {
  const { platform } = deps;
  const stream = authStreams.email(emailHash);
  for (let round = 0; round < ROUNDS; round++) {
    if (appendIfFirst(deps, stream, undefined, [start])) return 'claimed';
    const claim = readClaim(platform, emailHash);
    if (!claim) continue; // removed meanwhile: free again
    const holder = claim.account.userId;
    if (holder === userId) {
      if (appendIfFirst(deps, stream, claim.account.revision, [start])) return 'claimed';
      continue;
    }
    const record = readAddressRecord(platform, holder);
    if (countsBy(record, emailHash, claim.moved)) return 'taken';
    const released: EmailClaimReleased = { user_id: holder, released_at: platform.now() };
    if (!appendIfFirst(deps, authStreams.address(holder), record.revision, [authEvent('auth_email_claim_released', released)])) continue;
    if (!appendIfFirst(deps, stream, claim.account.revision, [start])) continue;
    dropEarlierClaim(deps, stream, claim.account.revision + 1n);
    forgetClaimInFlight(deps, holder, emailHash);
    platform.logger.log('info', 'a claim that counted for nobody was taken over', { code: 'auth_email_claim_taken_over', user_id: userId, from_user_id: holder });
    return 'claimed';
  }
  return 'taken';
}
