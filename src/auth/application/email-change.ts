/**
 * Changing the account's email address (docs/auth.md, "Changing the email address"):
 *
 * - asked from the account page, re-authenticated (the password, or a sign-in of the last
 *   REAUTH_WINDOW_MS by a provider or a passkey for an account without a password: a stolen
 *   session alone changes nothing), a single-use link (24 h) is mailed to the NEW address. Nothing
 *   else changes: the pending change (the address and the link) waits in key-value, one per
 *   account, the newest request replacing the one before;
 * - opening the link (in a browser signed out, or signed in to the same account) moves the
 *   account's claim to the new address (email-move.ts): atomic, never two addresses and never
 *   none; an address another account claimed meanwhile refuses it (409) and the old claim stays.
 *   The new address is verified by it. Provider links keep working: identities are keyed by the
 *   provider's subject, never by the address;
 * - the old address is then mailed a notice with an undo link (7 days, keyed by the old address, so
 *   a later change does not replace it): opening it ends every session of the account, drops a
 *   pending change, and moves the claim back to the old address while that address is free. When
 *   someone has registered it meanwhile the sessions still end and the account keeps the address
 *   it has; the answer says the address was not restored.
 */
import { AppError } from '../../errors.ts';
import { normalizeEmail } from '../domain/email.ts';
import { reauthenticate, REAUTH_WINDOW_MS } from './account-deletion.ts';
import type { AuthDeps } from './deps.ts';
import { readAddressRecord } from './email-address.ts';
import { changeLinkKey, parseStored, PendingSchema, pendingKey, undoKey, UndoSchema } from './email-change-keys.ts';
import { moveAddress, ownClaimOf, type AddressEnd } from './email-move.ts';
import { spendMailBudget } from './mail-budget.ts';
import { eraseMailLink, inspectMailLink, issueMailLink, MAIL_LINK_TTL_MS, newestMailLinkId, prepareMailLink, redeemMailLink, type MailLinkTarget } from './mail-links.ts';
import { mailTexts } from './mail-texts.ts';
import { sha256Hex } from './secrets.ts';
import type { ActiveSession } from './sessions.ts';
import { authNamespaces } from './streams.ts';
import { revokeUserSessions } from './user-sessions.ts';

/** Change mails one new address may be sent per hour; the mailbox, domain and client budgets apply too. */
export const CHANGE_MAILS_PER_HOUR = 3;

/** The pending change the account page shows. */
export interface PendingChange {
  email: string;
  requestedAt: number;
  expiresAt: number;
}

function mailConfig(deps: AuthDeps) {
  const mail = deps.config.mail;
  if (!mail) throw new AppError('not_found', 'mail is not configured (AUTH_PUBLIC_BASE_URL)');
  return mail;
}

/**
 * The password (checked by the login's own check), or a sign-in of the last REAUTH_WINDOW_MS by a
 * provider or a passkey. A password session always asks the password: its cookie alone proves
 * nothing more than a stolen one would.
 */
async function reauthenticateForChange(deps: AuthDeps, session: ActiveSession, password: string | undefined, client: string): Promise<void> {
  if (password !== undefined) return reauthenticate(deps, session, { password, client });
  const fresh = session.method !== 'password' && deps.platform.now() - session.issuedAt <= REAUTH_WINDOW_MS;
  if (!fresh) throw new AppError('forbidden', 'confirm with your password, or sign in again first');
}

/** Asks for a change to `typedEmail`: mails the link to it. 403 without re-authentication, 409 for the account's own address, 429 past the mail budgets. */
export async function requestEmailChange(deps: AuthDeps, session: ActiveSession, typedEmail: string, password: string | undefined, client: string): Promise<PendingChange> {
  const mail = mailConfig(deps);
  const email = normalizeEmail(typedEmail);
  const emailHash = await sha256Hex(email);
  try {
    await reauthenticateForChange(deps, session, password, client);
    if (session.email !== null && (await sha256Hex(session.email)) === emailHash) throw new AppError('conflict', 'this is the account’s address already');
    spendMailBudget(deps, 'email_change', { email, emailHash, client }, CHANGE_MAILS_PER_HOUR, false);
    const link = prepareMailLink();
    const key = await changeLinkKey(session.userId);
    // The link's record names the account; the account's own facts are not needed to use it.
    const account = { userId: session.userId, email, passwordHash: undefined, emailVerified: false, revision: 0n, passwordRevision: 0n };
    const issued = issueMailLink(deps, 'email_change', account, key, link, mail.baseUrl);
    const requestedAt = deps.platform.now();
    const ttl = MAIL_LINK_TTL_MS.email_change;
    deps.platform.keyValue.set(
      authNamespaces.emailChanges,
      pendingKey(session.userId),
      JSON.stringify({ link_id: link.id, email, email_hash: emailHash, requested_at: requestedAt }),
      BigInt(ttl),
    );
    const id = deps.platform.mail.send({ sender: mail.from, recipient: email, ...mailTexts.emailChange(mail.appName, issued.url), secrets: issued.secrets });
    deps.platform.logger.log('info', 'email change requested', { code: 'auth_email_change_requested', user_id: session.userId, mail_id: id });
    return { email, requestedAt, expiresAt: requestedAt + ttl };
  } catch (error) {
    throw AppError.fromStore(error);
  }
}

/** The account's pending change, if its link still works. */
export async function pendingEmailChange(deps: AuthDeps, userId: string): Promise<PendingChange | undefined> {
  try {
    const pending = parseStored(PendingSchema, deps.platform.keyValue.get(authNamespaces.emailChanges, pendingKey(userId)));
    if (!pending) return undefined;
    if (newestMailLinkId(deps, 'email_change', await changeLinkKey(userId)) !== pending.link_id) return undefined;
    return { email: pending.email, requestedAt: pending.requested_at, expiresAt: pending.requested_at + MAIL_LINK_TTL_MS.email_change };
  } catch (error) {
    throw AppError.fromStore(error);
  }
}

/** Drops the pending change and its link (the owner cancelled it, or an undo). */
export async function cancelEmailChange(deps: AuthDeps, userId: string): Promise<void> {
  try {
    deps.platform.keyValue.delete(authNamespaces.emailChanges, pendingKey(userId));
    eraseMailLink(deps, 'email_change', await changeLinkKey(userId));
  } catch (error) {
    throw AppError.fromStore(error);
  }
}

/** A link opened in a browser signed in to another account is refused, nothing used (403). */
async function refuseOtherAccount(deps: AuthDeps, kind: 'email_change' | 'email_undo', token: string, session: ActiveSession | undefined): Promise<void> {
  const seen = await inspectMailLink(deps, kind, token);
  if (seen && session && session.userId !== seen.userId) throw new AppError('forbidden', 'this link is for another account: sign out first');
}

const deadLink = () => new AppError('not_found', 'this link is not valid any more: ask for a new one');

export interface ChangedAddress {
  userId: string;
  email: string;
}

/** Follows a change link: the account's address becomes the new one (see above). 404 dead link, 403 another account's, 409 taken. */
export async function confirmEmailChange(deps: AuthDeps, token: string, session: ActiveSession | undefined): Promise<ChangedAddress> {
  await refuseOtherAccount(deps, 'email_change', token, session);
  const target: MailLinkTarget | undefined = await redeemMailLink(deps, 'email_change', token);
  if (!target) throw deadLink();
  const { platform } = deps;
  try {
    const pending = parseStored(PendingSchema, platform.keyValue.get(authNamespaces.emailChanges, pendingKey(target.userId)));
    if (!pending || pending.link_id !== token.split('.')[0]) throw deadLink();
    platform.keyValue.delete(authNamespaces.emailChanges, pendingKey(target.userId));
    const { recordRevision, own } = await ownClaimOf(deps, target.userId);
    const to: AddressEnd = { email: pending.email, emailHash: pending.email_hash };
    moveAddress(deps, target.userId, own, to, 'change', recordRevision);
    platform.logger.log('info', 'email changed', { code: 'auth_email_changed', user_id: target.userId });
    if (own) mailUndoLink(deps, target.userId, own);
    return { userId: target.userId, email: pending.email };
  } catch (error) {
    throw AppError.fromStore(error);
  }
}

/** The notice to the old address, with its undo link. A failure is logged: the change has happened. */
function mailUndoLink(deps: AuthDeps, userId: string, old: AddressEnd): void {
  const mail = deps.config.mail;
  if (!mail) return;
  try {
    const account = { userId, email: old.email, passwordHash: undefined, emailVerified: true, revision: 0n, passwordRevision: 0n };
    const issued = issueMailLink(deps, 'email_undo', account, old.emailHash, prepareMailLink(), mail.baseUrl);
    deps.platform.keyValue.set(authNamespaces.emailChanges, undoKey(userId, old.emailHash), JSON.stringify({ email: old.email }), BigInt(MAIL_LINK_TTL_MS.email_undo));
    deps.platform.mail.send({ sender: mail.from, recipient: old.email, ...mailTexts.emailChanged(mail.appName, issued.url, mail.baseUrl), secrets: issued.secrets });
  } catch (error) {
    deps.platform.logger.log('warn', 'the email change notice could not be queued', { code: 'auth_email_change_notice_failed', user_id: userId, error: String(error) });
  }
}

export interface UndoneChange {
  userId: string;
  /** false: the old address is another account's now, and the account keeps the address it has */
  restored: boolean;
  sessionsEnded: number;
}

/** Follows an undo link (see above). 404 dead link, 403 another account's. */
export async function undoEmailChange(deps: AuthDeps, token: string, session: ActiveSession | undefined): Promise<UndoneChange> {
  await refuseOtherAccount(deps, 'email_undo', token, session);
  const target = await redeemMailLink(deps, 'email_undo', token);
  if (!target) throw deadLink();
  const { platform } = deps;
  try {
    const undo = parseStored(UndoSchema, platform.keyValue.take(authNamespaces.emailChanges, undoKey(target.userId, target.emailHash)));
    if (!undo) throw deadLink();
    const sessionsEnded = revokeUserSessions(deps, target.userId);
    await cancelEmailChange(deps, target.userId);
    const record = readAddressRecord(platform, target.userId);
    let restored = record.current?.to_hash === target.emailHash;
    if (!restored) {
      const { recordRevision, own } = await ownClaimOf(deps, target.userId);
      try {
        moveAddress(deps, target.userId, own, { email: undo.email, emailHash: target.emailHash }, 'undo', recordRevision);
        restored = true;
      } catch (error) {
        if (!(error instanceof AppError && error.code === 'conflict')) throw error;
      }
    }
    platform.logger.log('info', 'email change undone', { code: 'auth_email_change_undone', user_id: target.userId, restored, sessions_ended: sessionsEnded });
    return { userId: target.userId, restored, sessionsEnded };
  } catch (error) {
    throw AppError.fromStore(error);
  }
}
