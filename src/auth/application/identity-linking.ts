/**
 * Linking a provider identity to the signed-in account, from inside it (docs/security.md, "The
 * linking rule"): the only way an identity joins an account whose email a password registration
 * claimed. The account's address must be verified (by mail, or by the provider that created it),
 * and the provider must say the identity's email is verified and equal to it, compared after the
 * one normalisation every address goes through (../domain/email.ts). Then the identity's stream
 * gets its `auth_external_identity_linked` (no-stream: of two links racing on any hosts one wins),
 * and its next provider sign-in lands in this account.
 */
import { normalizeEmail } from '../domain/email.ts';
import type { ExternalIdentityLinked } from '../domain/events.ts';
import { findAccountByEmailHash } from './accounts.ts';
import type { AuthDeps } from './deps.ts';
import { claimIdentity, identityStreamOf, readLink, type ExternalIdentity } from './external-identity.ts';
import { projectAfterResponse } from './projection.ts';
import { sha256Hex } from './secrets.ts';
import { AppError } from '../../errors.ts';

/** Why a link was refused; nothing is written for any of them. */
export type LinkRefusal =
  /** the account has no address of its own, or it is not verified */
  | 'account_unverified'
  /** the provider did not say the identity's email is verified */
  | 'provider_email_unverified'
  /** the provider's verified email is not the account's */
  | 'email_mismatch'
  /** the identity is linked to another account */
  | 'identity_taken';

export type LinkOutcome = { linked: true; already: boolean } | { linked: false; refusal: LinkRefusal };

/** The account's own, verified address (normalised), or undefined: only such an account links identities. */
export async function verifiedAccountEmail(deps: AuthDeps, account: { userId: string; email: string | null }): Promise<string | undefined> {
  if (!account.email) return undefined;
  try {
    const owner = findAccountByEmailHash(deps.platform, await sha256Hex(account.email));
    return owner && owner.userId === account.userId && owner.emailVerified && owner.email !== '' ? owner.email : undefined;
  } catch (error) {
    throw AppError.fromStore(error);
  }
}

function normalizedOrUndefined(email: string): string | undefined {
  try {
    return normalizeEmail(email);
  } catch {
    return undefined;
  }
}

/** Links `identity` to the account `user` (the signed-in one; the caller checked the session). */
export async function linkIdentityToAccount(deps: AuthDeps, user: { userId: string; email: string | null }, identity: ExternalIdentity): Promise<LinkOutcome> {
  const accountEmail = await verifiedAccountEmail(deps, user);
  if (accountEmail === undefined) return { linked: false, refusal: 'account_unverified' };
  if (!identity.emailVerified || !identity.email) return { linked: false, refusal: 'provider_email_unverified' };
  if (normalizedOrUndefined(identity.email) !== accountEmail) return { linked: false, refusal: 'email_mismatch' };

  const { stream, subjectHash } = await identityStreamOf(identity);
  const outcome = (owner: ExternalIdentityLinked): LinkOutcome => (owner.user_id === user.userId ? { linked: true, already: true } : { linked: false, refusal: 'identity_taken' });
  try {
    const existing = readLink(deps, stream);
    if (existing) return outcome(existing);
    const claim = claimIdentity(deps, stream, { user_id: user.userId, provider: identity.provider, subject_hash: subjectHash, email: accountEmail });
    if (!claim.claimed) return outcome(claim.holder);
    projectAfterResponse(deps.platform);
    return { linked: true, already: false };
  } catch (error) {
    throw AppError.fromStore(error);
  }
}
