/**
 * "Link <provider>" on the account page: the OAuth flow with a link intent instead of a sign-in
 * (docs/security.md, "The linking rule"). The start is a same-site form post of a signed-in
 * account whose address is verified; its state records the user id and the hash of the session
 * that asked. At the callback the link completes only if that session is still active and is the
 * one this browser holds, and the provider's verified email is the account's
 * (../../application/identity-linking.ts). Every refusal links nothing and signs nobody in.
 */
import { findActiveSessionByHash, linkIdentityToAccount, verifiedAccountEmail, type ActiveSession, type AuthDeps, type LinkRefusal } from '../../application/index.ts';
import type { ExternalIdentity } from '../providers/index.ts';
import { OAuthSignInError, type OAuthFailureReason } from './failures.ts';
import type { LinkIntent } from './state-records.ts';

/** Where the account page is, and where a link lands. */
export const LINK_DONE_PATH = '/dashboard?notice=provider_linked';

/** What the callback request tells about the browser's own session. */
export interface CallbackSession {
  /** hash of the session cookie the callback request carries, if any */
  sessionHash: string | undefined;
  /**
   * a form_post callback: a cross-site POST, which the SameSite=Lax session cookie never comes
   * with; the browser binding (same browser) and the recorded session's liveness stand in for it
   */
  formPost: boolean;
}

/** The intent for a link started by `session`; refused when its account's address is not verified. */
export async function linkIntentFor(deps: AuthDeps, session: ActiveSession | undefined): Promise<LinkIntent> {
  if (!session) throw new OAuthSignInError('oauth_link_sign_in_required');
  if ((await verifiedAccountEmail(deps, session)) === undefined) throw new OAuthSignInError('oauth_link_account_unverified');
  return { userId: session.userId, sessionHash: session.sessionHash };
}

/**
 * The session that started the link, still active, still that user's, and the one this browser
 * holds (signing out or in as someone else ends or replaces it): else `oauth_link_session_changed`.
 */
export function linkingSession(deps: AuthDeps, intent: LinkIntent, browser: CallbackSession): ActiveSession {
  const heldHere = browser.sessionHash === intent.sessionHash || (browser.sessionHash === undefined && browser.formPost);
  const session = heldHere ? findActiveSessionByHash(deps, intent.sessionHash) : undefined;
  if (!session || session.userId !== intent.userId) throw new OAuthSignInError('oauth_link_session_changed', { detail: heldHere ? 'ended' : 'other_session' });
  return session;
}

const REFUSALS: Record<LinkRefusal, OAuthFailureReason> = {
  account_unverified: 'oauth_link_account_unverified',
  provider_email_unverified: 'oauth_link_email_unverified',
  email_mismatch: 'oauth_link_email_mismatch',
  identity_taken: 'oauth_link_identity_taken',
};

/** Links the identity the provider vouched for to the session's account, or throws the refusal. */
export async function completeLink(deps: AuthDeps, session: ActiveSession, identity: ExternalIdentity): Promise<{ already: boolean }> {
  const outcome = await linkIdentityToAccount(deps, session, {
    provider: identity.provider,
    subject: identity.subject,
    email: identity.email ?? null,
    emailVerified: identity.emailVerified,
  });
  if (!outcome.linked) throw new OAuthSignInError(REFUSALS[outcome.refusal]);
  return { already: outcome.already };
}
