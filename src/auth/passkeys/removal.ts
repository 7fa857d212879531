/**
 * Removing passkeys in bulk, for the flows that take an account back: the first proof of control
 * of the mailbox on an account whose address was unverified removes every passkey added before it
 * (whoever registered the address may have planted one: a pre-hijacking, and no passkey can be
 * added to an unverified address since, ./adding-rules.ts); a password change, "end all
 * sessions", a completed reset and the link of a "passkey added" mail remove the ones the owner
 * names. Each removal is an `auth_passkey_removed` event with its reason, and the bulk is logged.
 */
import type { AuthDeps } from '../application/deps.ts';
import { authEvent } from '../application/event-codec.ts';
import type { PasskeyRemovalReason, PasskeyRemoved } from './events.ts';
import { appendToList, readPasskeys } from './store.ts';

/**
 * Removes the user's passkeys whose ids are in `only` (every one when absent); the number removed.
 * Store failures propagate (the callers turn them into AppErrors).
 */
export function removePasskeys(deps: AuthDeps, userId: string, reason: PasskeyRemovalReason, only?: ReadonlySet<string>): number {
  const { platform } = deps;
  const doomed = [...readPasskeys(deps, userId).keys()].filter((id) => only === undefined || only.has(id));
  if (doomed.length === 0) return 0;
  const removedAt = platform.now();
  for (const passkeyId of doomed) {
    const data: PasskeyRemoved = { passkey_id: passkeyId, removed_at: removedAt, reason };
    appendToList(deps, userId, authEvent('auth_passkey_removed', data));
  }
  platform.logger.log('info', 'passkeys removed', { code: 'auth_passkeys_removed', user_id: userId, reason, removed: doomed.length });
  return doomed.length;
}
