/**
 * The addresses an account's moves claimed before their record's append (email-move.ts, step 1):
 * key-value `auth-email-change`, `claiming:<user id>`, their hashes, kept without expiry. A move
 * that stops after step 1 leaves its claim named nowhere else (its pending change was dropped when
 * its link was opened, and the address record does not name it), so account deletion finds it
 * here (email-change-erasure.ts). A move takes its address off once its record names it, or once
 * the address proved another account's; a takeover (claim-takeover.ts) takes it off the former
 * holder's list, so the list does not keep the taker's address's hash.
 */
import * as v from 'valibot';
import type { AuthDeps } from './deps.ts';
import { parseStored } from './email-change-keys.ts';
import { authNamespaces } from './streams.ts';

const ClaimingSchema = v.object({ hashes: v.array(v.string()) });
const claimingKey = (userId: string) => `claiming:${userId}`;

/** The hashes of the addresses `userId`'s moves claimed and no record names yet. Store failures propagate. */
export function claimsInFlight(deps: AuthDeps, userId: string): string[] {
  return parseStored(ClaimingSchema, deps.platform.keyValue.get(authNamespaces.emailChanges, claimingKey(userId)))?.hashes ?? [];
}

function write(deps: AuthDeps, userId: string, hashes: string[]): void {
  const { keyValue } = deps.platform;
  if (hashes.length === 0) keyValue.delete(authNamespaces.emailChanges, claimingKey(userId));
  else keyValue.set(authNamespaces.emailChanges, claimingKey(userId), JSON.stringify({ hashes }), undefined);
}

/** Before a move's step 1: `emailHash` may be claimed for `userId` from here on. Store failures propagate. */
export function noteClaimInFlight(deps: AuthDeps, userId: string, emailHash: string): void {
  const hashes = claimsInFlight(deps, userId);
  if (!hashes.includes(emailHash)) write(deps, userId, [...hashes, emailHash]);
}

/** `emailHash` is no longer a claim of `userId`'s that only this list names. Store failures propagate. */
export function forgetClaimInFlight(deps: AuthDeps, userId: string, emailHash: string): void {
  const hashes = claimsInFlight(deps, userId);
  if (hashes.includes(emailHash))
    write(
      deps,
      userId,
      hashes.filter((hash) => hash !== emailHash),
    );
}

/** Erases the list (account deletion). */
export function eraseClaimsInFlight(deps: AuthDeps, userId: string): void {
  deps.platform.keyValue.delete(authNamespaces.emailChanges, claimingKey(userId));
}
