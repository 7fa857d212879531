/**
 * A way back in, and a way to change the password:
 *
 * - "Forgot password?": the answer is the same, and as quick, for a known and an unknown address:
 *   the route hashes the address and makes a token for both, then answers; whether a link is
 *   issued and mailed (the only work that differs) runs after the response is sent. At most a few
 *   reset mails per address per hour, and the mailbox, domain and client budgets (mail-budget.ts),
 *   silently (the answer never changes).
 * - The link (mail-links.ts, 30 min, single use, only the newest, only under the password it was
 *   issued for) sets a new password (`auth_password_changed`, appended at the email stream's
 *   exact revision), ends every session of the account and tells the address by mail.
 * - From the account page: the current password is required, checked by the login's own check
 *   (password-check.ts: each wrong one counts in the account's budget and the pair's lock); the
 *   other sessions end; the address is told.
 *
 * Either change kills every outstanding reset link (the password revision moves). Either may
 * also remove the account's passkeys (`removePasskeys`), the owner's choice. A reset is a proof of
 * control of the mailbox: on an account whose address was unverified it verifies the address and
 * removes every passkey added before it (src/auth/passkeys/removal.ts).
 *
 * An account made by a provider sign-in, which claimed its address with the provider's verified
 * email and has no password, gets the same link: opening it sets its first password. The link
 * proves the mailbox as for a reset, so the account then signs in both ways.
 */
import { AppError, isStoreConflict } from '../../errors.ts';
import { normalizeEmail } from '../domain/email.ts';
import type { EmailVerified, PasswordChanged } from '../domain/events.ts';
import { removePasskeys } from '../passkeys/removal.ts';
import { checkPassword } from '../domain/password-policy.ts';
import { findAccountByEmailHash, type Account } from './accounts.ts';
import type { AuthDeps } from './deps.ts';
import { authEvent } from './event-codec.ts';
import { spendMailBudget } from './mail-budget.ts';
import { inspectMailLink, issueMailLink, prepareMailLink, redeemMailLink, retireMailLinks, type MailLinkTarget, type PreparedLink } from './mail-links.ts';
import { mailTexts } from './mail-texts.ts';
import { checkPasswordAttempt } from './password-check.ts';
import { sha256Hex } from './secrets.ts';
import type { ActiveSession } from './sessions.ts';
import { authStreams } from './streams.ts';
import { revokeUserSessions } from './user-sessions.ts';

/** Reset mails one address may be sent per hour; more requests are answered alike and send nothing. */
export const RESET_MAILS_PER_HOUR = 3;

function mailConfig(deps: AuthDeps) {
  const mail = deps.config.mail;
  if (!mail) throw new AppError('not_found', 'mail is not configured (AUTH_PUBLIC_BASE_URL)');
  return mail;
}

/**
 * "Forgot password?": queues the work after the response; the caller answers the same whatever
 * happens. An address that is not one (shape) is a validation error, which says nothing of accounts.
 * `client` made the request (its mail budget).
 */
export async function requestPasswordReset(deps: AuthDeps, typedEmail: string, client: string): Promise<void> {
  const mail = mailConfig(deps);
  const email = normalizeEmail(typedEmail);
  const emailHash = await sha256Hex(email);
  const link = prepareMailLink();
  deps.platform.afterResponse(`password-reset:${link.id}`, () => void mailResetLink(deps, mail, emailHash, link, { quiet: true, client }));
}

/** What `mailResetLink` did (`no_account`: the address is no account's, or one whose address nobody proved and that has no password). */
export type ResetMailOutcome = 'queued' | 'no_account' | 'throttled';

/** A password account, or a provider account whose claim of the address a provider verified (it may set its first password). */
function resettable(account: Account | undefined): account is Account {
  return account !== undefined && (account.passwordHash !== undefined || account.emailVerified);
}

/**
 * Issues a reset link for the password account of the address and queues its mail, within the
 * mail budgets (mail-budget.ts; past one: `throttled`, or RateLimitedError unless `quiet`), spent
 * by `client`, who asked. "Forgot
 * password?" runs it after its response; an administrator's reset link runs it at once
 * (src/auth/admin/). Store failures propagate.
 */
export function mailResetLink(
  deps: AuthDeps,
  mail: { from: string; baseUrl: string; appName: string },
  emailHash: string,
  link: PreparedLink,
  request: { quiet: boolean; client: string },
): ResetMailOutcome {
  const account = findAccountByEmailHash(deps.platform, emailHash);
  if (!resettable(account)) {
    deps.platform.logger.log('info', 'password reset for an address without a password account; nothing sent', { code: 'auth_password_reset_unknown' });
    return 'no_account';
  }
  if (!spendMailBudget(deps, 'reset', { email: account.email, emailHash, client: request.client }, RESET_MAILS_PER_HOUR, request.quiet)) {
    deps.platform.logger.log('info', 'password reset past the hourly budget; nothing sent', { code: 'auth_password_reset_throttled', user_id: account.userId });
    return 'throttled';
  }
  const issued = issueMailLink(deps, 'reset', account, emailHash, link, mail.baseUrl);
  const id = deps.platform.mail.send({ sender: mail.from, recipient: account.email, ...mailTexts.reset(mail.appName, issued.url), secrets: issued.secrets });
  deps.platform.logger.log('info', 'password reset mail queued', { code: 'auth_password_reset_mail_queued', user_id: account.userId, mail_id: id });
  return 'queued';
}

/** The link's account, when the link would still set a password (to show the form). */
export async function inspectResetLink(deps: AuthDeps, token: string): Promise<Account | undefined> {
  const target = await inspectMailLink(deps, 'reset', token);
  return target && currentAccount(deps, target);
}

function currentAccount(deps: AuthDeps, target: MailLinkTarget): Account | undefined {
  const account = findAccountByEmailHash(deps.platform, target.emailHash);
  if (!resettable(account) || account.userId !== target.userId || account.passwordRevision !== target.passwordRevision) return undefined;
  return account;
}

/**
 * Appends the new hash at the revision `account` was read at; a concurrent change wins and this
 * one is refused. Through a reset of an unverified address, the address's verification with it.
 */
function storePassword(deps: AuthDeps, account: Account, emailHash: string, passwordHash: string, via: PasswordChanged['via']): void {
  const data: PasswordChanged = { user_id: account.userId, password_hash: passwordHash, via };
  const verified: EmailVerified = { user_id: account.userId, verified_at: deps.platform.now() };
  const proof = via === 'reset' && !account.emailVerified ? [authEvent('auth_email_verified', verified)] : [];
  try {
    deps.platform.events.append(authStreams.email(emailHash), { tag: 'exact', val: account.revision }, [authEvent('auth_password_changed', data), ...proof]);
  } catch (error) {
    if (isStoreConflict(error)) throw new AppError('conflict', 'the account changed meanwhile: try again', { cause: error });
    throw error;
  }
  retireMailLinks(deps, 'reset', emailHash);
  if (proof.length > 0) {
    retireMailLinks(deps, 'verify', emailHash);
    deps.platform.logger.log('info', 'email verified by a password reset', { code: 'auth_email_verified', user_id: account.userId, via: 'reset' });
  }
  const mail = deps.config.mail;
  if (mail) deps.platform.mail.send({ sender: mail.from, recipient: account.email, ...mailTexts.passwordChanged(mail.appName, via, mail.baseUrl) });
}

function hashPassword(deps: AuthDeps, password: string): string {
  const normalized = checkPassword(password, deps.config.passwordMinLength);
  try {
    return deps.platform.passwords.hash(normalized);
  } catch (error) {
    throw AppError.fromStore(error);
  }
}

/**
 * Sets a new password through a reset link. The password is checked before the link is used, so a
 * refused password leaves the link working; a dead link (`not_found`) changes nothing.
 */
export interface PasswordReset {
  userId: string;
  emailHash: string;
  sessionsEnded: number;
  /** passkeys removed: every one on an address proved for the first time, else those the owner asked to remove */
  passkeysRemoved: number;
}

export async function resetPassword(
  deps: AuthDeps,
  token: string,
  newPassword: string,
  session: ActiveSession | undefined,
  options: { removePasskeys?: boolean } = {},
): Promise<PasswordReset> {
  mailConfig(deps);
  const seen = await inspectMailLink(deps, 'reset', token);
  if (seen && session && session.userId !== seen.userId) throw new AppError('forbidden', 'this link is for another account: sign out first');
  checkPassword(newPassword, deps.config.passwordMinLength);
  const target = await redeemMailLink(deps, 'reset', token);
  const dead = () => new AppError('not_found', 'this link is not valid any more: ask for a new one');
  if (!target) throw dead();
  try {
    const account = currentAccount(deps, target);
    if (!account) throw dead();
    storePassword(deps, account, target.emailHash, hashPassword(deps, newPassword), 'reset');
    const sessionsEnded = revokeUserSessions(deps, account.userId);
    const passkeysRemoved = !account.emailVerified
      ? removePasskeys(deps, account.userId, 'mailbox_proof')
      : options.removePasskeys === true
        ? removePasskeys(deps, account.userId, 'password_reset')
        : 0;
    deps.platform.logger.log('info', 'password reset', { code: 'auth_password_reset', user_id: account.userId, sessions_ended: sessionsEnded, passkeys_removed: passkeysRemoved });
    return { userId: account.userId, emailHash: target.emailHash, sessionsEnded, passkeysRemoved };
  } catch (error) {
    throw AppError.fromStore(error);
  }
}

/** From the account page: the current password, then the new one; the other sessions end, the passkeys too when asked. */
export async function changePassword(
  deps: AuthDeps,
  session: ActiveSession,
  current: string,
  next: string,
  client: string,
  options: { removePasskeys?: boolean } = {},
): Promise<{ sessionsEnded: number; passkeysRemoved: number }> {
  if (!session.email) throw new AppError('conflict', 'this account has no password');
  const emailHash = await sha256Hex(session.email);
  checkPassword(next, deps.config.passwordMinLength);
  try {
    const owned = findAccountByEmailHash(deps.platform, emailHash);
    if (!owned?.passwordHash || owned.userId !== session.userId) throw new AppError('conflict', 'this account has no password');
    const { account } = await checkPasswordAttempt(deps, { emailHash, password: current, client });
    if (!account || account.userId !== session.userId) throw new AppError('invalid_credentials', 'the current password is not right');
    storePassword(deps, account, emailHash, hashPassword(deps, next), 'change');
    const sessionsEnded = revokeUserSessions(deps, account.userId, session.sessionHash);
    const passkeysRemoved = options.removePasskeys === true ? removePasskeys(deps, account.userId, 'password_change') : 0;
    deps.platform.logger.log('info', 'password changed', {
      code: 'auth_password_changed',
      user_id: account.userId,
      sessions_ended: sessionsEnded,
      passkeys_removed: passkeysRemoved,
    });
    return { sessionsEnded, passkeysRemoved };
  } catch (error) {
    throw AppError.fromStore(error);
  }
}
