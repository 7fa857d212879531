/**
 * The user's address record, `auth-address-<user id>`: written only by address changes
 * (email-change.ts), one `auth_email_changed` per move, each appended at the record's exact
 * revision. It is what decides which address claim counts once an account has changed its address:
 *
 * - an email stream whose first event is `auth_email_claimed` (a moved claim) counts only while
 *   the record's newest event names its address;
 * - an email stream made by a registration counts while the user has no record, or while the
 *   record's newest event names it.
 *
 * A move claims the new address (no-stream), then appends to the record (the moment it happens),
 * then removes the old address's stream. A crash between any two steps leaves exactly one claim
 * that counts: before the record's append the old one, after it the new one; a stream left behind
 * counts for nobody (accounts.ts asks this module) and is erased with the account.
 */
import type { Platform } from '../../platform/ports.ts';
import type { EmailChanged } from '../domain/events.ts';
import { payloadOf } from './event-codec.ts';
import { authStreams } from './streams.ts';

export interface AddressRecord {
  /** the record's revision, for the next append; undefined: no record yet (append with no-stream) */
  revision: bigint | undefined;
  /** the newest move: the account's address now */
  current: EmailChanged | undefined;
}

/** The user's address record's newest move and revision. Store failures propagate. */
export function readAddressRecord(platform: Platform, userId: string): AddressRecord {
  const newest = platform.events.readStream(authStreams.address(userId), { direction: 'backward', limit: 1 })[0];
  return newest ? { revision: newest.revision, current: payloadOf<EmailChanged>(newest) } : { revision: undefined, current: undefined };
}

/** Every move the record holds, oldest first, up to 1000 (account deletion erases the streams they name; the mail budgets keep an account far below). */
export function addressMoves(platform: Platform, userId: string): EmailChanged[] {
  return platform.events.readStream(authStreams.address(userId), { direction: 'forward', limit: 1000 }).map((event) => payloadOf<EmailChanged>(event));
}

/** Whether the claim of `emailHash` (made by `userId`, moved here when `moved`) counts (see above). */
export function claimCounts(platform: Platform, userId: string, emailHash: string, moved: boolean): boolean {
  const { current } = readAddressRecord(platform, userId);
  return current === undefined ? !moved : current.to_hash === emailHash;
}
