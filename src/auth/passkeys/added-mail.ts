/**
 * "A passkey was added to your account": mailed to the account's own address after every added
 * passkey, with a link (mail-links.ts kind `passkeys`, its secret made at delivery) to a page
 * that lists the account's passkeys and removes the ones the owner does not know. A session stolen
 * for a moment may still get past re-authentication (a provider sign-in of the last 5 minutes):
 * the owner hears of it and can undo it without signing in.
 */
import { findAccountByEmailHash } from '../application/accounts.ts';
import type { AuthDeps } from '../application/deps.ts';
import { issueMailLink, prepareMailLink } from '../application/mail-links.ts';
import { mailTexts } from '../application/mail-texts.ts';
import { sha256Hex } from '../application/secrets.ts';
import type { ActiveSession } from '../application/sessions.ts';
import type { PasskeyRegistered } from './events.ts';

/** Queues the mail when mail is on and the session's address is the account's own. Store failures propagate. */
export async function mailPasskeyAdded(deps: AuthDeps, session: ActiveSession, passkey: PasskeyRegistered): Promise<void> {
  const mail = deps.config.mail;
  if (!mail || session.email === null) return;
  const emailHash = await sha256Hex(session.email);
  const account = findAccountByEmailHash(deps.platform, emailHash);
  if (!account || account.userId !== session.userId) return;
  const issued = issueMailLink(deps, 'passkeys', account, emailHash, prepareMailLink(), mail.baseUrl);
  const addedAt = `${new Date(passkey.created_at).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const id = deps.platform.mail.send({
    sender: mail.from,
    recipient: account.email,
    ...mailTexts.passkeyAdded(mail.appName, passkey.name, addedAt, issued.url, mail.baseUrl),
    secrets: issued.secrets,
  });
  deps.platform.logger.log('info', 'passkey-added mail queued', { code: 'auth_passkey_added_mail_queued', user_id: session.userId, mail_id: id });
}
