/**
 * What account deletion erases of the account's address changes: the address record, every email
 * stream a move left that this account holds (a moved claim, the claim of a move stopped before its
 * record's append, found through claims-in-flight.ts, an old claim not yet removed), the pending change with its link, the undo links and what they
 * name, and the mail queued to an address no other account holds. An address the account moved
 * away from and someone else registered since is theirs: its stream, links and mail stay.
 */
import { purgeMailTo } from '../../platform/mail-outbox-upkeep.ts';
import { findAccountByEmailHash, readClaim } from './accounts.ts';
import type { AuthDeps } from './deps.ts';
import { claimsInFlight, eraseClaimsInFlight } from './claims-in-flight.ts';
import { addressMoves } from './email-address.ts';
import { changeLinkKey, parseStored, PendingSchema, pendingKey, undoKey } from './email-change-keys.ts';
import { eraseMailLink, eraseOwnMailLinks } from './mail-links.ts';
import { authNamespaces, authStreams } from './streams.ts';

/** What to remove: the address record, and the email streams holding this account's claims when read (claim-removal.ts). */
export interface AddressStreams {
  record: string;
  claimHashes: string[];
}

/** Erases the key-value records and mail (see above) and returns the streams to remove. Store failures propagate. */
export async function eraseAddressChanges(deps: AuthDeps, userId: string): Promise<AddressStreams> {
  const { platform } = deps;
  const { keyValue } = platform;
  const hashes = new Set<string>();
  for (const move of addressMoves(platform, userId)) {
    if (move.from_hash !== null) hashes.add(move.from_hash);
    hashes.add(move.to_hash);
  }
  const pending = parseStored(PendingSchema, keyValue.get(authNamespaces.emailChanges, pendingKey(userId)));
  if (pending) hashes.add(pending.email_hash);
  for (const hash of claimsInFlight(deps, userId)) hashes.add(hash);
  const claimHashes: string[] = [];
  for (const hash of hashes) {
    keyValue.delete(authNamespaces.emailChanges, undoKey(userId, hash));
    // Each kind's newest link for the address, when it is this account's.
    eraseOwnMailLinks(deps, hash, userId);
    const claim = readClaim(platform, hash);
    if (claim?.account.userId === userId) claimHashes.push(hash);
    // Mail to an address no other account holds is this account's (a notice, a change link).
    const holder = findAccountByEmailHash(platform, hash);
    const address = claim?.account.email ?? (pending?.email_hash === hash ? pending.email : undefined);
    if (address && (holder === undefined || holder.userId === userId)) purgeMailTo(platform.projections, address);
  }
  keyValue.delete(authNamespaces.emailChanges, pendingKey(userId));
  eraseClaimsInFlight(deps, userId);
  eraseMailLink(deps, 'email_change', await changeLinkKey(userId));
  return { record: authStreams.address(userId), claimHashes };
}
