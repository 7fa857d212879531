/**
 * For the OAuth flow: the account an external identity signs in to, creating the link
 * (`auth_external_identity_linked`, stream `auth-identity-<provider>-<sha256(subject)>` created
 * with no-stream) and, when needed, the account. Precedence: an existing link wins, then the
 * account owning the provider's *verified* email **when that account's email was verified too**
 * (it was created by a provider sign-in with that verified email), else a new account.
 *
 * The rule against account pre-hijacking (docs/security.md, "The linking rule"): an identity is
 * never linked by email to a password account, because registering with a password proves
 * nothing about the mailbox. Whoever registered the email first keeps that password account; the
 * provider sign-in gets a separate account (in `auth-user-<id>`, the email shown but not claimed).
 * Races between hosts resolve through the no-stream claims: the loser re-reads. The one way an
 * identity joins a password account is from inside it (./identity-linking.ts). An identity its
 * account's owner unlinked (./sign-in-method-removal.ts) has no link any more and does not join
 * that account by email either: it gets an account of its own, unless linked again from inside.
 */
import type { ExternalIdentityLinked, ExternalIdentityUnlinked, ExternalUserRegistered } from '../domain/events.ts';
import { normalizeEmail } from '../domain/email.ts';
import { findAccountByEmailHash, type Account } from './accounts.ts';
import { claimAddress } from './claim-takeover.ts';
import type { AuthDeps } from './deps.ts';
import { authEvent, payloadOf } from './event-codec.ts';
import { projectAfterResponse } from './projection.ts';
import { sha256Hex } from './secrets.ts';
import { AppError, isStoreConflict } from '../../errors.ts';
import { authStreams } from './streams.ts';

export interface ExternalIdentity {
  /** `provider_a`, `provider_b`, `provider_c` */
  provider: string;
  /** The provider's stable subject id (`sub`); stored only hashed. */
  subject: string;
  email: string | null;
  emailVerified: boolean;
}

export interface LinkedAccount {
  userId: string;
  email: string | null;
  /** true when this call created the account */
  created: boolean;
  /** true when this call created the link */
  linked: boolean;
}

/** The link stream of an identity and its subject hash (the subject itself is never stored). */
export async function identityStreamOf(identity: Pick<ExternalIdentity, 'provider' | 'subject'>): Promise<{ stream: string; subjectHash: string }> {
  const subjectHash = await sha256Hex(`${identity.provider}\n${identity.subject}`);
  return { stream: authStreams.identity(identity.provider, subjectHash), subjectHash };
}

/** The link an identity's stream holds, if any. Store failures propagate. */
/**
 * Claims an identity's stream for `link` (the first link of an identity wins; the stream is
 * created at no-stream). Returns the link that holds it: `link` itself, or the one a concurrent
 * sign-in or link wrote first. Store failures propagate.
 */
export function claimIdentity(deps: AuthDeps, stream: string, link: ExternalIdentityLinked): { claimed: boolean; holder: ExternalIdentityLinked } {
  try {
    deps.platform.events.append(stream, { tag: 'no-stream' }, [authEvent('auth_external_identity_linked', link)]);
    return { claimed: true, holder: link };
  } catch (error) {
    if (!isStoreConflict(error)) throw error;
    const winner = readLink(deps, stream);
    if (!winner) throw error;
    return { claimed: false, holder: winner };
  }
}

export function readLink(deps: AuthDeps, stream: string): ExternalIdentityLinked | undefined {
  const first = deps.platform.events.readStream(stream, { direction: 'forward', limit: 1 })[0];
  return first ? payloadOf<ExternalIdentityLinked>(first) : undefined;
}

/** A new account in its own user stream: the email (if any) is shown but claims nothing. */
function createUnclaimedAccount(deps: AuthDeps, identity: ExternalIdentity, email: string | null): { userId: string; created: boolean } {
  const userId = crypto.randomUUID();
  const data: ExternalUserRegistered = { user_id: userId, email, provider: identity.provider };
  deps.platform.events.append(authStreams.user(userId), { tag: 'no-stream' }, [authEvent('auth_external_user_registered', data)]);
  return { userId, created: true };
}

/**
 * Claims the verified email for a new account (over a claim that counts for nobody too,
 * claim-takeover.ts); when the email is already taken, see `joinOrSeparate`.
 */
async function createAccount(deps: AuthDeps, identity: ExternalIdentity, email: string | null, subjectHash: string): Promise<{ userId: string; created: boolean }> {
  if (!email) return createUnclaimedAccount(deps, identity, null);
  const userId = crypto.randomUUID();
  const data: ExternalUserRegistered = { user_id: userId, email, provider: identity.provider };
  const emailHash = await sha256Hex(email);
  if (claimAddress(deps, emailHash, userId, authEvent('auth_external_user_registered', data)) === 'claimed') return { userId, created: true };
  // Someone claimed the email first (another host's sign-in, or a password registration).
  const owner = findAccountByEmailHash(deps.platform, emailHash);
  if (!owner) throw new AppError('conflict', 'the address kept changing: try again');
  return joinOrSeparate(deps, identity, email, owner, subjectHash);
}

/** Whether the account's owner unlinked this identity (`auth_external_identity_unlinked` in the user's stream). */
function unlinkedBy(deps: AuthDeps, userId: string, provider: string, subjectHash: string): boolean {
  return deps.platform.events.readStream(authStreams.user(userId), { direction: 'backward', limit: 1000 }).some((event) => {
    if (event.eventType !== 'auth_external_identity_unlinked') return false;
    const data = payloadOf<ExternalIdentityUnlinked>(event);
    return data.provider === provider && data.subject_hash === subjectHash;
  });
}

/**
 * Joins an account whose email a provider verified; never a password account (pre-hijacking), not
 * even one whose owner verified the address by mail: such a link is made from inside the account
 * only. Nor an account whose owner unlinked this very identity: the owner said no to it.
 */
function joinOrSeparate(deps: AuthDeps, identity: ExternalIdentity, email: string, owner: Account, subjectHash: string): { userId: string; created: boolean } {
  if (owner.emailVerified && owner.passwordHash === undefined) {
    if (!unlinkedBy(deps, owner.userId, identity.provider, subjectHash)) return { userId: owner.userId, created: false };
    deps.platform.logger.log('info', 'provider sign-in with an identity its account unlinked kept apart', {
      code: 'auth_identity_not_linked_unlinked',
      provider: identity.provider,
    });
    return createUnclaimedAccount(deps, identity, email);
  }
  deps.platform.logger.log('info', 'provider sign-in kept apart from a password account with the same email', {
    code: 'auth_identity_not_linked_unverified_email',
    provider: identity.provider,
  });
  return createUnclaimedAccount(deps, identity, email);
}

export async function linkOrCreateUserForExternalIdentity(deps: AuthDeps, identity: ExternalIdentity): Promise<LinkedAccount> {
  const { stream, subjectHash } = await identityStreamOf(identity);
  try {
    const existing = readLink(deps, stream);
    if (existing) return { userId: existing.user_id, email: existing.email, created: false, linked: false };

    let email: string | null = null;
    if (identity.email && identity.emailVerified) {
      try {
        email = normalizeEmail(identity.email);
      } catch {
        email = null;
      }
    }
    const owner = email ? findAccountByEmailHash(deps.platform, await sha256Hex(email)) : undefined;
    const { userId, created } = owner && email ? joinOrSeparate(deps, identity, email, owner, subjectHash) : await createAccount(deps, identity, email, subjectHash);

    const claim = claimIdentity(deps, stream, { user_id: userId, provider: identity.provider, subject_hash: subjectHash, email });
    if (!claim.claimed) return { userId: claim.holder.user_id, email: claim.holder.email, created: false, linked: false };
    projectAfterResponse(deps.platform);
    return { userId, email, created, linked: true };
  } catch (error) {
    throw AppError.fromStore(error);
  }
}
