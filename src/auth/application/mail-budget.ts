/**
 * How much link mail (verification, password reset) may go out, per hour (fixed windows in
 * key-value, shared by every host), so that nobody can use the service to flood an inbox or a
 * mail domain (OWASP Forgot Password Cheat Sheet and Authentication Cheat Sheet, rate limiting;
 * OWASP ASVS V2.2.1, anti-automation; NIST SP 800-63B §5.2.2). Each mail spends one unit of every
 * budget below, in this order, and goes only if none is spent:
 *
 * - per client address (its clientKey): AUTH_MAIL_MAX_PER_CLIENT_PER_HOUR, the mail one client's
 *   requests may cause whatever the addresses; first, so a client past it spends nobody's mailbox;
 * - per address and kind: a few (the flows' own constants);
 * - per mailbox, the `+tag` and case folded as providers route it (domain/mailbox.ts):
 *   AUTH_MAIL_MAX_PER_MAILBOX_PER_HOUR, every kind together;
 * - per mail domain: AUTH_MAIL_MAX_PER_DOMAIN_PER_HOUR.
 *
 * Past a budget the flows whose answer must not change (registration, "forgot password") send
 * nothing and say so only in the log (`auth_mail_budget_spent`, naming the budget, never the
 * address): the answer stays the same, so the budgets reveal nothing about accounts. The counts
 * outlive an erasure of the account (a register-and-delete loop would otherwise mail an address
 * without limit): their keys are purpose-labelled hashes (secrets.ts `addressCounterKey`).
 */
import { RateLimitedError } from '../../errors.ts';
import { clientKey } from '../../contract/client-key.ts';
import { mailboxOf, mailDomainOf } from '../domain/mailbox.ts';
import type { AuthDeps } from './deps.ts';
import type { MailLinkKind } from './mail-links.ts';
import { addressCounterKey } from './secrets.ts';
import { authNamespaces } from './streams.ts';

const HOUR_MS = 3_600_000;

/** Who a mail goes to and whose request caused it. */
export interface MailRecipient {
  /** The normalized address. */
  email: string;
  emailHash: string;
  /** The client address of the request that caused the mail. */
  client: string;
}

export type MailBudgetName = 'client' | 'address' | 'mailbox' | 'domain';

interface Budget {
  name: MailBudgetName;
  key: string;
  max: number;
}

function budgets(deps: AuthDeps, kind: MailLinkKind, to: MailRecipient, perAddress: number): Budget[] {
  const { config } = deps;
  return [
    { name: 'client', key: `client:${addressCounterKey('mail-client', clientKey(to.client))}`, max: config.mailMaxPerClientPerHour },
    { name: 'address', key: `${kind}:${addressCounterKey('mail-budget', to.emailHash)}`, max: perAddress },
    { name: 'mailbox', key: `mailbox:${addressCounterKey('mail-mailbox', mailboxOf(to.email))}`, max: config.mailMaxPerMailboxPerHour },
    { name: 'domain', key: `domain:${addressCounterKey('mail-domain', mailDomainOf(to.email))}`, max: config.mailMaxPerDomainPerHour },
  ];
}

/**
 * Spends one mail of `kind` to `to` from every budget (see above); `perAddress` is the kind's
 * own limit per address. True when the mail may go. Past a budget: with `quiet`, false and a log
 * line; without, RateLimitedError (429 with Retry-After) for callers that may say so.
 */
export function spendMailBudget(deps: AuthDeps, kind: MailLinkKind, to: MailRecipient, perAddress: number, quiet: boolean): boolean {
  const { keyValue, now, logger } = deps.platform;
  const windowStart = Math.floor(now() / HOUR_MS) * HOUR_MS;
  for (const budget of budgets(deps, kind, to, perAddress)) {
    const count = keyValue.increment(authNamespaces.mailLinkBudget, `${budget.key}:${windowStart}`, 1n, BigInt(HOUR_MS * 2));
    if (count <= BigInt(budget.max)) continue;
    logger.log('info', 'mail budget spent; nothing sent', { code: 'auth_mail_budget_spent', budget: budget.name, kind });
    if (quiet) return false;
    throw new RateLimitedError((windowStart + HOUR_MS - now()) / 1000);
  }
  return true;
}
