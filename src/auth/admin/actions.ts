/**
 * What an administrator can do to an account (better-auth's `admin` plugin and Ory Kratos's admin
 * API do the same): disable it (no sign-in by any method, its sessions end at once) and enable it
 * again, end one or all of its sessions, mail it a password reset link (the one "Forgot
 * password?" mails), and delete it (the erasure self-deletion runs). Each is recorded as an auth
 * event naming the administrator (./audit.ts).
 */
import { AppError } from '../../errors.ts';
import type { Platform } from '../../platform/ports.ts';
import { setAccountDisabled } from '../application/account-access.ts';
import { eraseAccount } from '../application/account-deletion.ts';
import type { AuthDeps } from '../application/deps.ts';
import { prepareMailLink } from '../application/mail-links.ts';
import { mailResetLink } from '../application/password-reset.ts';
import { runAuthProjection } from '../application/projection.ts';
import { sha256Hex } from '../application/secrets.ts';
import { revokeUserSessionByHandle, revokeUserSessions } from '../application/user-sessions.ts';
import { recordAdminAction } from './audit.ts';
import { userDocument } from './user-summary.ts';

/** Who acts: the subject of a verified AAL2 system-administrator token. */
export interface Administrator {
  subject: string;
}

/** Projection runs a disable waits for at most while other hosts commit the same pages. */
const MAX_CATCH_UP_RUNS = 10;

/**
 * The read models caught up with every event committed before this call (a run that loses to
 * another host's is run again), so the session list holds every session issued so far.
 */
function catchUp(platform: Platform): void {
  try {
    for (let run = 0; run < MAX_CATCH_UP_RUNS; run++) if (!runAuthProjection(platform).superseded) return;
  } catch (error) {
    throw AppError.fromStore(error);
  }
}

export interface AccessChange {
  /** false when the account already was in that state (nothing was written) */
  changed: boolean;
  sessionsEnded: number;
}

/**
 * Disables the account and ends its sessions. The disable is written first: a sign-in from then on
 * is refused, and one that got its session just before is in the session list read after it
 * (application/account-access.ts).
 */
export function disableAccount(deps: AuthDeps, admin: Administrator, userId: string): AccessChange {
  userDocument(deps, userId);
  const changed = setAccountDisabled(deps, userId, true, admin.subject);
  catchUp(deps.platform);
  const sessionsEnded = revokeUserSessions(deps, userId);
  return { changed, sessionsEnded };
}

export function enableAccount(deps: AuthDeps, admin: Administrator, userId: string): AccessChange {
  userDocument(deps, userId);
  return { changed: setAccountDisabled(deps, userId, false, admin.subject), sessionsEnded: 0 };
}

/** Ends the session with the public handle `handle`, or every session when none is given; how many ended. */
export async function revokeSessionsOf(deps: AuthDeps, admin: Administrator, userId: string, handle: string | undefined): Promise<number> {
  userDocument(deps, userId);
  const revoked = handle === undefined ? revokeUserSessions(deps, userId) : (revokeUserSessionByHandle(deps, userId, handle), 1);
  await recordAdminAction(deps, { type: 'auth_admin_sessions_revoked', data: { user_id: userId, by: admin.subject, sessions: revoked, at: deps.platform.now() } });
  return revoked;
}

/**
 * Mails the account's address a reset link now, within the mail budgets (429 past one), the
 * administrator's `client` address spending its own.
 * 404 without mail configured; 409 for an account without an address of its own. A provider account
 * without a password gets the link that sets its first one.
 */
export async function sendResetLink(deps: AuthDeps, admin: Administrator, userId: string, client: string): Promise<void> {
  const mail = deps.config.mail;
  if (!mail) throw new AppError('not_found', 'mail is not configured (AUTH_PUBLIC_BASE_URL)');
  const user = userDocument(deps, userId);
  if (user.email === null) throw new AppError('conflict', 'this account has no email address');
  let outcome;
  try {
    outcome = mailResetLink(deps, mail, await sha256Hex(user.email), prepareMailLink(), { quiet: false, client });
  } catch (error) {
    throw AppError.fromStore(error);
  }
  if (outcome !== 'queued') throw new AppError('conflict', 'this account owns no address a link could go to');
  await recordAdminAction(deps, { type: 'auth_admin_reset_link_sent', data: { user_id: userId, by: admin.subject, at: deps.platform.now() } });
}

/** Erases the account as its owner's own deletion does (application/account-deletion.ts); streams removed. */
export async function deleteAccountAsAdmin(deps: AuthDeps, admin: Administrator, userId: string): Promise<number> {
  const user = userDocument(deps, userId);
  const { removedStreams } = await eraseAccount(deps, userId, { email: user.email });
  await recordAdminAction(deps, { type: 'auth_admin_account_deleted', data: { user_id: userId, by: admin.subject, at: deps.platform.now() } });
  return removedStreams;
}
