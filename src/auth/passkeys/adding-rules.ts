/**
 * Who may add a passkey. A passkey is a lasting aal2 sign-in, so adding one asks for more than a
 * session cookie:
 * - the account's address is verified when it has one of its own: whoever registered someone
 *   else's address could otherwise plant a passkey that outlives the owner's reset (account
 *   pre-hijacking; the first proof of the mailbox also removes any passkey added before it,
 *   ./removal.ts);
 * - re-authentication, the rule account deletion asks (the password, or a provider sign-in of the
 *   last 5 minutes; NIST SP 800-63B §7.2 reauthentication): a stolen session alone adds nothing.
 * Both are checked before a registration challenge is issued; the challenge (single use, 5
 * minutes, bound to the user) then carries the permission to the verification.
 */
import { AppError } from '../../errors.ts';
import { reauthenticate, type Reauthentication } from '../application/account-deletion.ts';
import type { AuthDeps } from '../application/deps.ts';
import { accountFacts } from '../application/email-verification.ts';
import type { ActiveSession } from '../application/sessions.ts';

export const UNVERIFIED_REFUSAL = 'confirm your email address first: a passkey is only added to an account whose address is verified';

/** 403 `forbidden` while the account's own address is unverified. */
export async function requireVerifiedAddress(deps: AuthDeps, session: ActiveSession): Promise<void> {
  if ((await accountFacts(deps, session)).email === 'unverified') throw new AppError('forbidden', UNVERIFIED_REFUSAL);
}

/** Both rules above; 403 `forbidden` (each with its message) when one fails. */
export async function requireMayAddPasskey(deps: AuthDeps, session: ActiveSession, reauth: Reauthentication): Promise<void> {
  await requireVerifiedAddress(deps, session);
  try {
    await reauthenticate(deps, session, reauth);
  } catch (error) {
    throw AppError.fromStore(error);
  }
}
