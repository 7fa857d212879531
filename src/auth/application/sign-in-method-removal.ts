/**
 * Removing one of the signed-in account's sign-in methods: unlinking a provider identity, removing
 * a passkey, or removing the password, each only while another way in remains (the one rule,
 * ../domain/ways-in.ts, checked here on the server whatever the page showed). It asks what account
 * deletion asks (`reauthenticate`: the password, or a sign-in of the last 5 minutes with a provider
 * or a passkey), takes one change at a time per account (two removals racing from two
 * sessions could otherwise each see the other's method and leave none), then:
 * - unlinking removes the identity's link stream, so the subject signs in nowhere until linked
 *   again, and writes `auth_external_identity_unlinked` in the user's stream: a later sign-in with
 *   it never joins this account by email (external-identity.ts) and gets an account of its own;
 * - removing a passkey writes `auth_passkey_removed` (the assertion check reads the list);
 * - removing the password writes `auth_password_removed` in the email stream at the revision read,
 *   which ends its reset links too.
 * The other sessions of the account end (one may have been opened with the method removed), and
 * the account's verified address is told by mail.
 */
import { AppError, isStoreConflict } from '../../errors.ts';
import type { ExternalIdentityUnlinked, PasswordRemoved } from '../domain/events.ts';
import { methodName, removalRefusal, type SignInMethod } from '../domain/ways-in.ts';
import { removePasskey } from '../passkeys/manage.ts';
import { reauthenticate, type Reauthentication } from './account-deletion.ts';
import type { AuthDeps } from './deps.ts';
import { authEvent } from './event-codec.ts';
import { retireMailLinks } from './mail-links.ts';
import { mailTexts } from './mail-texts.ts';
import { projectAfterResponse } from './projection.ts';
import type { ActiveSession } from './sessions.ts';
import { authNamespaces, authStreams } from './streams.ts';
import { revokeUserSessions } from './user-sessions.ts';
import { readWaysIn, type AccountWaysIn } from './ways-in.ts';

/** The refusal's public message: the account page and API clients show it as it is. */
export const LAST_WAY_IN_MESSAGE = 'this is the last way to sign in to the account: add another one first';

/** How long one change holds the account's turn at most (a crashed request frees it then). */
const TURN_MS = 10_000n;

export interface RemovedMethod {
  /** the method's wire name */
  removed: string;
  /** the other sessions of the account that ended */
  sessionsEnded: number;
}

function removePassword(deps: AuthDeps, userId: string, owned: NonNullable<AccountWaysIn['owned']>): void {
  const data: PasswordRemoved = { user_id: userId, removed_at: deps.platform.now() };
  try {
    deps.platform.events.append(authStreams.email(owned.emailHash), { tag: 'exact', val: owned.account.revision }, [authEvent('auth_password_removed', data)]);
  } catch (error) {
    if (isStoreConflict(error)) throw new AppError('conflict', 'the account changed meanwhile: try again', { cause: error });
    throw error;
  }
  retireMailLinks(deps, 'reset', owned.emailHash);
}

function unlinkIdentity(deps: AuthDeps, userId: string, identity: AccountWaysIn['identities'][number]): void {
  const { platform } = deps;
  // The link first: once it is gone the subject signs in nowhere, whatever happens next.
  platform.events.removeStream(authStreams.identity(identity.provider, identity.subjectHash), { tag: 'any' });
  const data: ExternalIdentityUnlinked = { user_id: userId, provider: identity.provider, subject_hash: identity.subjectHash, unlinked_at: platform.now() };
  platform.events.append(authStreams.user(userId), { tag: 'any' }, [authEvent('auth_external_identity_unlinked', data)]);
}

/** What the mail calls the method. */
function methodWords(method: SignInMethod, passkeyName: string | undefined, providerLabel: (id: string) => string): string {
  if (method.kind === 'password') return 'your password';
  if (method.kind === 'provider') return `sign-in with ${providerLabel(method.provider)}`;
  return `the passkey "${passkeyName ?? 'unnamed'}"`;
}

/**
 * Removes `method` from the signed-in account (see above). 403 `forbidden` without
 * re-authentication, 404 `not_found` for a method the account does not have, 409 `conflict` for
 * the last way in (LAST_WAY_IN_MESSAGE) or while another change runs.
 */
export async function removeSignInMethod(
  deps: AuthDeps,
  current: ActiveSession,
  method: SignInMethod,
  reauth: Reauthentication,
  providerLabel: (id: string) => string = (id) => id,
): Promise<RemovedMethod> {
  const { platform } = deps;
  const { userId } = current;
  // Not one of the account's methods: 404 before anything is asked (the list shows them to any session anyway).
  if (removalRefusal((await readWaysIn(deps, current)).ways, method) === 'not_found') throw new AppError('not_found', 'the account has no such sign-in method');
  await reauthenticate(deps, current, reauth);
  try {
    if (platform.keyValue.increment(authNamespaces.methodChange, userId, 1n, TURN_MS) !== 1n) {
      throw new AppError('conflict', 'another change to the sign-in methods is under way: try again');
    }
    try {
      const read = await readWaysIn(deps, current);
      const refusal = removalRefusal(read.ways, method);
      if (refusal === 'not_found') throw new AppError('not_found', 'the account has no such sign-in method');
      if (refusal === 'last_way_in') throw new AppError('conflict', LAST_WAY_IN_MESSAGE);
      let passkeyName: string | undefined;
      if (method.kind === 'password' && read.owned) removePassword(deps, userId, read.owned);
      if (method.kind === 'provider') unlinkIdentity(deps, userId, read.identities.find((i) => i.provider === method.provider)!);
      if (method.kind === 'passkey') passkeyName = removePasskey(deps, userId, method.id).name;
      const sessionsEnded = revokeUserSessions(deps, userId, current.sessionHash);
      projectAfterResponse(platform);
      platform.logger.log('info', 'sign-in method removed', { code: 'auth_sign_in_method_removed', user_id: userId, kind: method.kind, sessions_ended: sessionsEnded });
      const mail = deps.config.mail;
      const owner = read.owned?.account;
      if (mail && owner?.emailVerified && owner.email !== '') {
        platform.mail.send({
          sender: mail.from,
          recipient: owner.email,
          ...mailTexts.signInMethodRemoved(mail.appName, methodWords(method, passkeyName, providerLabel), mail.baseUrl),
        });
      }
      return { removed: methodName(method), sessionsEnded };
    } finally {
      platform.keyValue.delete(authNamespaces.methodChange, userId);
    }
  } catch (error) {
    throw AppError.fromStore(error);
  }
}
