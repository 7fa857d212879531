/**
 * Account deletion (GDPR Art. 17): the signed-in user, re-authenticated (their password, or a
 * provider sign-in at most REAUTH_WINDOW_MS old), deletes their account. Every stream holding
 * their personal data is removed from the store (event-store `remove-stream`): the email claim
 * (email, password hash), the user stream, each external identity (provider subject hash, email)
 * and each session (email, device hint), live or ended and kept for retention. Then their
 * read-model documents go, and, when the account owns its address, the mail outbox's messages to
 * it (queued or set aside) and its mailed links. Removing the email claim frees the email: it can
 * register again. What address changes left goes too (email-change-erasure.ts). Email streams are
 * removed at the revision read as the account's claim (claim-removal.ts): one another account took
 * over meanwhile (claim-takeover.ts) stays with its new claim.
 *
 * Deletion touches only what the account owns. An account made by a provider sign-in whose
 * verified address a password account had claimed first shows that address but does not own it
 * (external-identity.ts): its deletion leaves the claim, the mail and the links of the owner.
 * Once it has committed, the store scrubs its files of what was removed (`scrubRemoved`).
 * Erasure rather than crypto-shredding: the streams are the user's alone, so nothing else is
 * lost with them, and the store then holds no ciphertext that a leaked key could open
 * (docs/storage.md, "Account deletion"). The per-type event totals stay exact.
 *
 * `eraseAccount` is the erasure itself, the one an administrator's deletion runs too
 * (src/auth/admin/): it needs the user id only.
 */
import { AppError } from '../../errors.ts';
import type { DocumentChange } from '../../platform/ports.ts';
import { findAccountByEmailHash } from './accounts.ts';
import type { AuthDeps } from './deps.ts';
import { AUTH_COLLECTIONS, AUTH_PROJECTION, readAuthDocument, runAuthProjection, userSessionEntries, type UserDocument } from './projection.ts';
import { checkPasswordAttempt } from './password-check.ts';
import { ENDED_SESSIONS } from './retention.ts';
import { purgeMailTo } from '../../platform/mail-outbox-upkeep.ts';
import { eraseMailLinks } from './mail-links.ts';
import { eraseAddressChanges } from './email-change-erasure.ts';
import { removeClaim } from './claim-removal.ts';
import { everRegisteredPasskeyIds, passkeyStreams } from '../passkeys/store.ts';
import { sha256Hex } from './secrets.ts';
import type { ActiveSession } from './sessions.ts';
import { authNamespaces, authStreams } from './streams.ts';

/** How recent a provider sign-in must be to stand for re-authentication. */
export const REAUTH_WINDOW_MS = 5 * 60_000;

const PAGE = 500;
const MAX_COMMIT_RACES = 20;

export interface Reauthentication {
  /** The account's password, when it has one. */
  password?: string | undefined;
  /** The client's address, for the password attempts' limit (the login's own). */
  client: string;
}

export interface DeletedAccount {
  removedStreams: number;
}

/**
 * The password proves it is the user, or the current session comes from a provider or passkey
 * sign-in in the last REAUTH_WINDOW_MS. The password goes through the login's own check (password-check.ts): a
 * stolen session cannot guess it here faster than a login could, and its guesses slow the login.
 * Deleting the account, adding a passkey (src/auth/passkeys/adding-rules.ts) and removing a
 * sign-in method (./sign-in-method-removal.ts) ask it.
 */
export async function reauthenticate(deps: AuthDeps, current: ActiveSession, reauth: Reauthentication): Promise<void> {
  if (reauth.password !== undefined && current.email !== null) {
    const emailHash = await sha256Hex(current.email);
    // Only the account's own password: the address may be shown by an account that does not own it.
    const owned = findAccountByEmailHash(deps.platform, emailHash);
    if (owned?.passwordHash && owned.userId === current.userId) {
      const { account } = await checkPasswordAttempt(deps, { emailHash, password: reauth.password, client: reauth.client });
      if (account?.userId === current.userId) return;
    }
    throw new AppError('forbidden', 'the password does not match: re-authentication failed');
  }
  // A passkey sign-in counts as a provider's does: an account left with passkeys alone has no password to give.
  const fresh = (current.method.startsWith('oauth:') || current.method === 'passkey') && deps.platform.now() - current.issuedAt <= REAUTH_WINDOW_MS;
  if (!fresh) throw new AppError('forbidden', 'confirm with your password, or sign in with your provider or passkey again first');
}

/** Every session hash of the user the read models know of: live, waiting to end, ended and retained; `extra` (the caller's session) too. */
function sessionHashesOf(deps: AuthDeps, userId: string, extra: string | undefined): { hashes: Set<string>; queueEntries: DocumentChange[] } {
  const { platform } = deps;
  const hashes = new Set<string>([...(extra === undefined ? [] : [extra]), ...userSessionEntries(platform, userId).map((s) => s.session_hash)]);
  const queueEntries: DocumentChange[] = [];
  for (const collection of [AUTH_COLLECTIONS.sessionEnds, ENDED_SESSIONS]) {
    let after: string | undefined;
    for (;;) {
      const page = platform.projections.listDocuments(collection, after, PAGE);
      for (const doc of page) {
        if (readAuthDocument<{ user_id: string }>(collection, doc.body).user_id !== userId) continue;
        hashes.add(doc.id.slice(doc.id.indexOf(':') + 1));
        queueEntries.push({ tag: 'delete', val: { collection, id: doc.id } });
      }
      if (page.length < PAGE) break;
      after = page.at(-1)!.id;
    }
  }
  return { hashes, queueEntries };
}

/**
 * What the erasure removed leaves the store's files before the answer: SQLite's write-ahead log,
 * older versions in the file store's logs (WIT `erasure.scrub`). The erasure has committed
 * whatever happens here; a failure is logged and the next maintenance pass scrubs again.
 */
function scrubErasure(deps: AuthDeps): void {
  try {
    deps.platform.scrubRemoved();
  } catch (error) {
    deps.platform.logger.log('warn', 'the store could not scrub the erased data yet', { code: 'auth_erasure_scrub_failed', error: String(error) });
  }
}

/** Deletes the signed-in user's account (see above). 403 `forbidden` without re-authentication. */
export async function deleteAccount(deps: AuthDeps, current: ActiveSession, reauth: Reauthentication): Promise<DeletedAccount> {
  try {
    await reauthenticate(deps, current, reauth);
  } catch (error) {
    throw AppError.fromStore(error);
  }
  return eraseAccount(deps, current.userId, { email: current.email, sessionHash: current.sessionHash });
}

/**
 * Erases the account `userId` (see above). `known`: what the caller knows of it beyond the read
 * models (the signed-in session's address and hash), so nothing of it is missed if they lag.
 */
export async function eraseAccount(deps: AuthDeps, userId: string, known: { email: string | null; sessionHash?: string } = { email: null }): Promise<DeletedAccount> {
  const { platform } = deps;
  try {
    // Across retries: a stream removed by an earlier try removes nothing the next time.
    let removed = 0;
    for (let race = 0; race < MAX_COMMIT_RACES; race++) {
      const { checkpoint } = runAuthProjection(platform);
      const userDoc = platform.projections.getDocument({ collection: AUTH_COLLECTIONS.users, id: userId });
      const user = userDoc ? readAuthDocument<UserDocument>(AUTH_COLLECTIONS.users, userDoc.body) : undefined;
      const email = user?.email ?? known.email;
      const emailHash = email ? await sha256Hex(email) : undefined;
      // Whose the address is: only its owner's deletion removes the claim, its mail and its links.
      const ownsEmail = emailHash !== undefined && findAccountByEmailHash(platform, emailHash)?.userId === userId;
      const { hashes, queueEntries } = sessionHashesOf(deps, userId, known.sessionHash);
      // Before the user stream goes: the address record names the streams its moves left.
      const address = await eraseAddressChanges(deps, userId);
      // Email streams at the revision read as this account's claim: one taken over since stays.
      const claimHashes = new Set([...address.claimHashes, ...(ownsEmail ? [emailHash] : [])]);
      for (const hash of claimHashes) removed += Number(removeClaim(deps, hash, (claim) => claim.account.userId === userId));
      const streams = [
        address.record,
        authStreams.user(userId),
        authStreams.access(userId),
        ...(user?.identities ?? []).map((identity) => authStreams.identity(identity.provider, identity.subject_hash)),
        ...[...hashes].map((hash) => authStreams.session(hash)),
        // The passkeys' streams hold their public keys, names and owner: removed with the list last.
        ...everRegisteredPasskeyIds(deps, userId).map((passkeyId) => passkeyStreams.credential(passkeyId)),
        passkeyStreams.list(userId),
      ];
      for (const stream of streams) removed += Number(platform.events.removeStream(stream, { tag: 'any' }));
      for (const hash of hashes) platform.keyValue.delete(authNamespaces.sessionActivity, hash);
      // Mail queued or set aside for the account holds its address (a deliverer that fails on a
      // message meanwhile does not put it back, host/mail/outbox.ts).
      if (ownsEmail && email) {
        purgeMailTo(platform.projections, email);
        eraseMailLinks(deps, emailHash);
      }
      const changes: DocumentChange[] = [
        { tag: 'delete', val: { collection: AUTH_COLLECTIONS.users, id: userId } },
        { tag: 'delete', val: { collection: AUTH_COLLECTIONS.userSessions, id: userId } },
        ...queueEntries,
      ];
      // At the projection's checkpoint: a run that moved it first (a sign-in of this user racing
      // the deletion) makes this pass again on the newer state.
      if (platform.projections.commit(AUTH_PROJECTION, checkpoint, checkpoint, changes)) {
        scrubErasure(deps);
        return { removedStreams: removed };
      }
    }
    throw new AppError('concurrency', 'the account kept changing during its deletion; try again');
  } catch (error) {
    throw AppError.fromStore(error);
  }
}
