/**
 * The user's address record, `auth-address-<user id>`: one `auth_email_changed` per move of the
 * address (email-change.ts), and one `auth_email_claim_released` per claim of the user's that
 * counted for nobody and that another account took over (claim-takeover.ts), each appended at the
 * record's exact revision. Its newest `auth_email_changed` decides which address claim counts once
 * an account has changed its address (a release changes nothing of that):
 *
 * - an email stream whose first event is `auth_email_claimed` (a moved claim) counts only while
 *   the record's newest event names its address;
 * - an email stream made by a registration counts while the user has no record, or while the
 *   record's newest event names it.
 *
 * A move claims the new address (no-stream), then appends to the record (the moment it happens),
 * then removes the old address's stream. A crash between any two steps leaves exactly one claim
 * that counts: before the record's append the old one, after it the new one; a stream left behind
 * counts for nobody (accounts.ts asks this module) and is erased with the account, or taken over
 * by another account: the release's append moves the record's revision first, so a move that read
 * it before fails its record's append and cannot make that claim count any more.
 */
import type { Platform } from '../../platform/ports.ts';
import type { EmailChanged } from '../domain/events.ts';
import type { RecordedEvent } from '../../platform/ports.ts';
import { payloadOf } from './event-codec.ts';
import { authStreams } from './streams.ts';

export interface AddressRecord {
  /** the record's revision, for the next append; undefined: no record yet (append with no-stream) */
  revision: bigint | undefined;
  /** the newest move: the account's address now */
  current: EmailChanged | undefined;
}

/** Events one record may hold; the mail budgets keep an account's moves and releases far below. */
const MAX_RECORD_EVENTS = 1000;

const isMove = (event: RecordedEvent) => event.eventType === 'auth_email_changed';

/** The user's address record's newest move and revision. Store failures propagate. */
export function readAddressRecord(platform: Platform, userId: string): AddressRecord {
  const stream = authStreams.address(userId);
  const newest = platform.events.readStream(stream, { direction: 'backward', limit: 1 })[0];
  if (!newest) return { revision: undefined, current: undefined };
  // A release after the newest move (rare): the move is further back.
  const move = isMove(newest) ? newest : platform.events.readStream(stream, { direction: 'backward', limit: MAX_RECORD_EVENTS }).find(isMove);
  return { revision: newest.revision, current: move ? payloadOf<EmailChanged>(move) : undefined };
}

/** Every move the record holds, oldest first (account deletion erases the streams they name). */
export function addressMoves(platform: Platform, userId: string): EmailChanged[] {
  return platform.events
    .readStream(authStreams.address(userId), { direction: 'forward', limit: MAX_RECORD_EVENTS })
    .filter(isMove)
    .map((event) => payloadOf<EmailChanged>(event));
}

/** Whether, by the record `record`, the claim of `emailHash` (moved here when `moved`) counts (see above). */
export function countsBy(record: AddressRecord, emailHash: string, moved: boolean): boolean {
  return record.current === undefined ? !moved : record.current.to_hash === emailHash;
}

/** Whether the claim of `emailHash` (made by `userId`, moved here when `moved`) counts (see above). */
export function claimCounts(platform: Platform, userId: string, emailHash: string, moved: boolean): boolean {
  return countsBy(readAddressRecord(platform, userId), emailHash, moved);
}
