/**
 * Accounts by email: the stream `auth-email-<sha256(normalized email)>` is created with
 * no-stream by the registration that claims the email, so an email belongs to one account even
 * with many hosts on one store. Its first event says who owns it and, for password accounts,
 * holds the first password hash; later events change the password (`auth_password_changed`, the
 * newest wins) or remove it (`auth_password_removed`) or record that the owner followed a link mailed to the address
 * (`auth_email_verified`). A password registration alone proves nothing about the email; a claim
 * made by a provider's verified email does. An address change moves the claim to another stream
 * (`auth_email_claimed` first, verified); which of two streams counts during a move, the user's
 * address record decides (email-address.ts): a claim that does not count is no account. Another
 * account may take such a claim over (claim-takeover.ts): its own claim-starting event is appended
 * to the stream, and the newest claim-starting event is the one that holds the address.
 */
import type { Platform, RecordedEvent } from '../../platform/ports.ts';
import type { EmailClaimed, ExternalUserRegistered, PasswordChanged, PasswordUserRegistered } from '../domain/events.ts';
import { claimCounts } from './email-address.ts';
import { payloadOf } from './event-codec.ts';
import { AppError } from '../../errors.ts';
import { authStreams } from './streams.ts';

export interface Account {
  userId: string;
  email: string;
  /** Absent for accounts created by an external sign-in. */
  passwordHash: string | undefined;
  /**
   * true when the owner followed a verification link, or the claim came from a provider that
   * verified the email. A password registration alone never verifies it.
   */
  emailVerified: boolean;
  /** The email stream's revision when it was read (a change to the account appends at exactly it). */
  revision: bigint;
  /** The revision of the event holding the current password hash: a reset link dies when it moves. */
  passwordRevision: bigint;
}

/** Events one email stream may hold; far more than password changes and verifications ever make. */
const MAX_ACCOUNT_EVENTS = 1000;

/** The account whose claim of the address counts, if any (see above). Store failures propagate. */
export function findAccountByEmailHash(platform: Platform, emailHash: string): Account | undefined {
  const claim = readClaim(platform, emailHash);
  if (!claim) return undefined;
  try {
    return claimCounts(platform, claim.account.userId, emailHash, claim.moved) ? claim.account : undefined;
  } catch (error) {
    throw AppError.fromStore(error);
  }
}

/** The event types that start a claim: the stream's first, or one that took it over (claim-takeover.ts). */
const CLAIM_STARTS = new Set(['auth_password_user_registered', 'auth_external_user_registered', 'auth_email_claimed']);

/** The claim an email stream holds, folded, whether or not it counts. */
export interface Claim {
  account: Account;
  /** made by an address change (`auth_email_claimed`) */
  moved: boolean;
  /** the revision of the event that started it */
  start: bigint;
  /** that event's global sequence (what came before it in the store, across streams) */
  startSequence: bigint;
  /** the stream still holds events of an earlier claim, before `start` */
  earlier: boolean;
}

/** The account a claim-starting event makes. */
function startOf(event: RecordedEvent): Account {
  if (event.eventType === 'auth_email_claimed') {
    const data = payloadOf<EmailClaimed>(event);
    return {
      userId: data.user_id,
      email: data.email,
      passwordHash: data.password_hash ?? undefined,
      emailVerified: true,
      revision: event.revision,
      passwordRevision: event.revision,
    };
  }
  if (event.eventType === 'auth_password_user_registered') {
    const data = payloadOf<PasswordUserRegistered>(event);
    return { userId: data.user_id, email: data.email, passwordHash: data.password_hash, emailVerified: false, revision: event.revision, passwordRevision: event.revision };
  }
  const data = payloadOf<ExternalUserRegistered>(event);
  return { userId: data.user_id, email: data.email ?? '', passwordHash: undefined, emailVerified: data.email !== null, revision: event.revision, passwordRevision: 0n };
}

/**
 * The email stream folded from its newest claim-starting event (see above), whether or not the
 * claim counts; undefined when the stream holds none. Store failures propagate as AppError.
 */
export function readClaim(platform: Platform, emailHash: string): Claim | undefined {
  let events;
  try {
    events = platform.events.readStream(authStreams.email(emailHash), { direction: 'forward', limit: MAX_ACCOUNT_EVENTS });
  } catch (error) {
    throw AppError.fromStore(error);
  }
  const startAt = events.findLastIndex((event) => CLAIM_STARTS.has(event.eventType));
  const first = events[startAt];
  if (!first) return undefined;
  const account = startOf(first);
  for (const event of events.slice(startAt + 1)) {
    account.revision = event.revision;
    if (event.eventType === 'auth_email_verified') account.emailVerified = true;
    if (event.eventType === 'auth_password_changed') {
      account.passwordHash = payloadOf<PasswordChanged>(event).password_hash;
      account.passwordRevision = event.revision;
    }
    if (event.eventType === 'auth_password_removed') {
      account.passwordHash = undefined;
      account.passwordRevision = event.revision;
    }
  }
  return { account, moved: first.eventType === 'auth_email_claimed', start: first.revision, startSequence: first.sequence, earlier: startAt > 0 };
}
