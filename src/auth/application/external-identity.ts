/**
 * For the OAuth flow: the account an external identity signs in to, creating the link
 * (`auth_external_identity_linked`, stream `auth-identity-<provider>-<sha256(subject)>` created
 * with no-stream) and, when needed, the account. Precedence: an existing link wins, then the
 * account owning the provider's *verified* email, else a new account (claiming the email when
 * verified). Races between hosts resolve through the no-stream claims: the loser re-reads.
 */
import type { ExternalIdentityLinked, ExternalUserRegistered } from '../domain/events.ts';
import { normalizeEmail } from '../domain/email.ts';
import { findAccountByEmailHash } from './accounts.ts';
import type { AuthDeps } from './deps.ts';
import { authEvent, payloadOf } from './event-codec.ts';
import { runAuthProjectionQuietly } from './projection.ts';
import { sha256Hex } from './secrets.ts';
import { authStoreFailure, isConflict } from './store-failure.ts';
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

function readLink(deps: AuthDeps, stream: string): ExternalIdentityLinked | undefined {
  const first = deps.platform.events.readStream(stream, { direction: 'forward', limit: 1 })[0];
  return first ? payloadOf<ExternalIdentityLinked>(first) : undefined;
}

/** Claims the email (or, without a verified email, a fresh user stream) for a new account. */
async function createAccount(deps: AuthDeps, identity: ExternalIdentity, email: string | null): Promise<{ userId: string; created: boolean }> {
  const userId = crypto.randomUUID();
  const data: ExternalUserRegistered = { user_id: userId, email, provider: identity.provider };
  const stream = email ? authStreams.email(await sha256Hex(email)) : authStreams.user(userId);
  try {
    deps.platform.events.append(stream, { tag: 'no-stream' }, [authEvent('auth_external_user_registered', data)]);
    return { userId, created: true };
  } catch (error) {
    if (!isConflict(error) || !email) throw error;
    // Another sign-in claimed the email first: join that account.
    const owner = findAccountByEmailHash(deps.platform, await sha256Hex(email));
    if (!owner) throw error;
    return { userId: owner.userId, created: false };
  }
}

export async function linkOrCreateUserForExternalIdentity(deps: AuthDeps, identity: ExternalIdentity): Promise<LinkedAccount> {
  const subjectHash = await sha256Hex(`${identity.provider}\n${identity.subject}`);
  const stream = authStreams.identity(identity.provider, subjectHash);
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
    const { userId, created } = owner ? { userId: owner.userId, created: false } : await createAccount(deps, identity, email);

    const link: ExternalIdentityLinked = { user_id: userId, provider: identity.provider, subject_hash: subjectHash, email };
    try {
      deps.platform.events.append(stream, { tag: 'no-stream' }, [authEvent('auth_external_identity_linked', link)]);
    } catch (error) {
      if (!isConflict(error)) throw error;
      const winner = readLink(deps, stream);
      if (!winner) throw error;
      return { userId: winner.user_id, email: winner.email, created: false, linked: false };
    }
    runAuthProjectionQuietly(deps.platform);
    return { userId, email, created, linked: true };
  } catch (error) {
    throw authStoreFailure(error);
  }
}
