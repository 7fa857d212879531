/**
 * Removing an email stream that holds an account's claim at the revision it was read at
 * (event-store `remove-stream` with an exact revision): an append since that read (a takeover of a
 * claim that counts for nobody, claim-takeover.ts, or a move of the account's back to the address)
 * makes the removal fail instead of removing the new claim with the old. The stream is then read
 * again and the caller decides again: still the claim it meant, it is removed at its new revision;
 * otherwise it stays. Account deletion and a move's step 3 (email-move.ts) remove claims this way.
 */
import { AppError, isStoreConflict } from '../../errors.ts';
import { readClaim, type Claim } from './accounts.ts';
import type { AuthDeps } from './deps.ts';
import { authStreams } from './streams.ts';

/** Rounds of lost races before giving up (each needs another writer's append in between). */
const ROUNDS = 5;

/**
 * Removes the stream of `emailHash` while `meant(claim)` says its claim is the one to remove,
 * calling `before(claim)` first on each round; returns how many events it removed (0 when the
 * claim was not the one meant). Store failures propagate; `concurrency` after ROUNDS lost races.
 */
export function removeClaim(deps: AuthDeps, emailHash: string, meant: (claim: Claim) => boolean, before?: (claim: Claim) => void): bigint {
  const stream = authStreams.email(emailHash);
  for (let round = 0; round < ROUNDS; round++) {
    const claim = readClaim(deps.platform, emailHash);
    if (!claim || !meant(claim)) return 0n;
    before?.(claim);
    try {
      return deps.platform.events.removeStream(stream, { tag: 'exact', val: claim.account.revision });
    } catch (error) {
      if (!isStoreConflict(error)) throw error;
    }
  }
  throw new AppError('concurrency', 'an address claim kept changing during its removal; try again');
}
