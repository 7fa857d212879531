/**
 * Removing passkeys without signing in, with a link that proves the mailbox (mail-links.ts kind
 * `passkeys`): the one in the "passkey added" mail (./added-mail.ts), and the one a completed reset
 * hands its page. Opening the link changes nothing (mail scanners fetch links): its page lists the
 * account's passkeys; the form posted from it removes the ones ticked and uses the link up.
 */
import { AppError } from '../../errors.ts';
import { findAccountByEmailHash } from '../application/accounts.ts';
import type { AuthDeps } from '../application/deps.ts';
import { inspectMailLink, issuePageLink, redeemMailLink, type MailLinkTarget } from '../application/mail-links.ts';
import { listPasskeys, type PasskeySummary } from './manage.ts';
import { removePasskeys } from './removal.ts';

const dead = () => new AppError('not_found', 'this link is not valid any more: sign in and remove passkeys from your account page, or reset your password');

/** The link's account when it still exists as the link knew it. */
function accountOf(deps: AuthDeps, target: MailLinkTarget | undefined): string | undefined {
  if (!target) return undefined;
  const account = findAccountByEmailHash(deps.platform, target.emailHash);
  return account?.userId === target.userId ? account.userId : undefined;
}

/** The passkeys the link's page lists; undefined for a link that would not work. */
export async function passkeysOfRemovalLink(deps: AuthDeps, token: string): Promise<PasskeySummary[] | undefined> {
  try {
    const userId = accountOf(deps, await inspectMailLink(deps, 'passkeys', token));
    return userId === undefined ? undefined : listPasskeys(deps, userId);
  } catch (error) {
    throw AppError.fromStore(error);
  }
}

/** Uses the link up and removes the passkeys named (of the link's account; others are ignored). 404 for a dead link. */
export async function removePasskeysWithLink(deps: AuthDeps, token: string, passkeyIds: readonly string[]): Promise<{ userId: string; removed: number }> {
  try {
    const userId = accountOf(deps, await redeemMailLink(deps, 'passkeys', token));
    if (userId === undefined) throw dead();
    return { userId, removed: removePasskeys(deps, userId, 'removal_link', new Set(passkeyIds)) };
  } catch (error) {
    throw AppError.fromStore(error);
  }
}

/** A link for the page a completed reset leads to (the reset proved the mailbox). */
export async function issueRemovalLinkAfterReset(deps: AuthDeps, userId: string, emailHash: string): Promise<string | undefined> {
  const account = findAccountByEmailHash(deps.platform, emailHash);
  if (!account || account.userId !== userId) return undefined;
  return issuePageLink(deps, 'passkeys', account, emailHash);
}
