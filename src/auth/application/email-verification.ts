/**
 * Email verification: a password registration mails a single-use link (mail-links.ts, 24 h) to
 * the address; following it records `auth_email_verified` in the account's email stream. The
 * signed-in owner may ask for a new link ("resend"), a few per hour. A link opened in a browser
 * signed in to another account is refused: it would verify an address its user does not own.
 */
import { AppError, isStoreConflict } from '../../errors.ts';
import type { EmailVerified } from '../domain/events.ts';
import { findAccountByEmailHash, type Account } from './accounts.ts';
import type { AuthDeps } from './deps.ts';
import { authEvent } from './event-codec.ts';
import { spendMailBudget } from './mail-budget.ts';
import { inspectMailLink, issueMailLink, prepareMailLink, redeemMailLink, retireMailLinks, type PreparedLink } from './mail-links.ts';
import { mailTexts } from './mail-texts.ts';
import { sha256Hex } from './secrets.ts';
import type { ActiveSession } from './sessions.ts';
import { authStreams } from './streams.ts';

/** Verification mails one address may be sent per hour (registration's included); the mailbox, domain and client budgets apply too (mail-budget.ts). */
export const VERIFICATION_MAILS_PER_HOUR = 3;

function mailConfig(deps: AuthDeps) {
  const mail = deps.config.mail;
  if (!mail) throw new AppError('not_found', 'mail is not configured (AUTH_PUBLIC_BASE_URL)');
  return mail;
}

/** Issues a link and queues the mail. Store failures propagate. */
export function sendVerificationMail(deps: AuthDeps, account: Account, emailHash: string, link: PreparedLink): void {
  const mail = mailConfig(deps);
  const issued = issueMailLink(deps, 'verify', account, emailHash, link, mail.baseUrl);
  const id = deps.platform.mail.send({ sender: mail.from, recipient: account.email, ...mailTexts.verify(issued.url), secrets: issued.secrets });
  deps.platform.logger.log('info', 'verification mail queued', { code: 'auth_verification_mail_queued', user_id: account.userId, mail_id: id });
}

/**
 * After a registration that created the account: the first verification mail, once the response
 * is sent (registration answers a free and a taken address alike, in time too). `link` is made
 * before the claim, on both paths. `client` made the request (its mail budget, mail-budget.ts).
 */
export function mailVerificationAfterResponse(deps: AuthDeps, userId: string, emailHash: string, link: PreparedLink, client: string): void {
  deps.platform.afterResponse(`verify-mail:${userId}`, () => {
    const account = findAccountByEmailHash(deps.platform, emailHash);
    if (!account || account.userId !== userId || account.emailVerified) return;
    if (!spendMailBudget(deps, 'verify', { email: account.email, emailHash, client }, VERIFICATION_MAILS_PER_HOUR, true)) return;
    sendVerificationMail(deps, account, emailHash, link);
  });
}

export type VerificationState = 'verified' | 'unverified' | 'none';

/** What the account page shows of the signed-in account's address and password. */
export interface AccountFacts {
  /** `none`: the session's account does not own an address (a provider account without email). */
  email: VerificationState;
  hasPassword: boolean;
}

export async function accountFacts(deps: AuthDeps, session: ActiveSession): Promise<AccountFacts> {
  if (!session.email) return { email: 'none', hasPassword: false };
  const account = findAccountByEmailHash(deps.platform, await sha256Hex(session.email));
  if (!account || account.userId !== session.userId) return { email: 'none', hasPassword: false };
  return { email: account.emailVerified ? 'verified' : 'unverified', hasPassword: account.passwordHash !== undefined };
}

/** The signed-in account's address: verified or not. */
export async function verificationState(deps: AuthDeps, session: ActiveSession): Promise<VerificationState> {
  return (await accountFacts(deps, session)).email;
}

/** "Resend": a new link for the signed-in owner (the previous one dies); 429 past an hourly budget (mail-budget.ts). */
export async function resendVerification(deps: AuthDeps, session: ActiveSession, client: string): Promise<void> {
  mailConfig(deps);
  if (!session.email) throw new AppError('conflict', 'this account has no email address');
  const emailHash = await sha256Hex(session.email);
  const link = prepareMailLink();
  try {
    const account = findAccountByEmailHash(deps.platform, emailHash);
    if (!account || account.userId !== session.userId) throw new AppError('conflict', 'this account has no email address of its own');
    if (account.emailVerified) throw new AppError('conflict', 'the address is verified already');
    spendMailBudget(deps, 'verify', { email: account.email, emailHash, client }, VERIFICATION_MAILS_PER_HOUR, false);
    sendVerificationMail(deps, account, emailHash, link);
  } catch (error) {
    throw AppError.fromStore(error);
  }
}

/**
 * Follows a verification link: the address of the link's account is verified. Refused (`forbidden`,
 * nothing written, the link kept) when the browser is signed in to another account; refused
 * (`not_found`) when the link is unknown, used, expired or superseded.
 */
export async function verifyEmail(deps: AuthDeps, token: string, session: ActiveSession | undefined): Promise<{ userId: string }> {
  const seen = await inspectMailLink(deps, 'verify', token);
  if (seen && session && session.userId !== seen.userId) throw new AppError('forbidden', 'this link is for another account: sign out first');
  const target = await redeemMailLink(deps, 'verify', token);
  if (!target) throw new AppError('not_found', 'this link is not valid any more: ask for a new one');
  try {
    const account = findAccountByEmailHash(deps.platform, target.emailHash);
    if (!account || account.userId !== target.userId) throw new AppError('not_found', 'this link is not valid any more: ask for a new one');
    if (!account.emailVerified) {
      const data: EmailVerified = { user_id: account.userId, verified_at: deps.platform.now() };
      try {
        deps.platform.events.append(authStreams.email(target.emailHash), { tag: 'exact', val: account.revision }, [authEvent('auth_email_verified', data)]);
      } catch (error) {
        // Another change to the account got in first: the link is spent; the owner asks for another.
        if (isStoreConflict(error)) throw new AppError('conflict', 'the account changed meanwhile: try again with a new link', { cause: error });
        throw error;
      }
      deps.platform.logger.log('info', 'email verified', { code: 'auth_email_verified', user_id: account.userId });
    }
    retireMailLinks(deps, 'verify', target.emailHash);
    return { userId: account.userId };
  } catch (error) {
    throw AppError.fromStore(error);
  }
}
