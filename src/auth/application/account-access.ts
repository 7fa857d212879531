/**
 * Whether an account may sign in: an administrator disables an account that is being abused and
 * enables it again (src/auth/admin/). The state is the newest event of the stream
 * `auth-access-<user id>` (`auth_account_disabled` / `auth_account_enabled`, each naming the
 * administrator), so a check is one backward read of one event, and every host sharing the store
 * sees a change at once. No stream: enabled.
 *
 * Every sign-in (password, passkey, provider) ends in `issueSession` (sessions.ts), which checks
 * before it issues and again after: a disable that commits between the two finds the new session
 * in the user's session list and ends it, or the second check does (docs/auth.md, "Disabled
 * accounts").
 */
import { AppError, isStoreConflict } from '../../errors.ts';
import type { AccountDisabled, AccountEnabled } from '../domain/events.ts';
import type { AuthDeps } from './deps.ts';
import { authEvent, payloadOf } from './event-codec.ts';
import { projectAfterResponse } from './projection.ts';
import { authStreams } from './streams.ts';

export interface AccountAccess {
  disabled: boolean;
  /** when the newest change happened (epoch ms), and by whom; absent for an account never changed */
  changedAt?: number;
  changedBy?: string;
  /** the access stream's revision (0: never changed) */
  revision: bigint;
}

/** The account's access state. Store failures become AppErrors. */
export function accountAccess(deps: AuthDeps, userId: string): AccountAccess {
  let newest;
  try {
    newest = deps.platform.events.readStream(authStreams.access(userId), { direction: 'backward', limit: 1 })[0];
  } catch (error) {
    throw AppError.fromStore(error);
  }
  if (!newest) return { disabled: false, revision: 0n };
  const data = payloadOf<AccountDisabled | AccountEnabled>(newest);
  return { disabled: newest.eventType === 'auth_account_disabled', changedAt: data.at, changedBy: data.by, revision: newest.revision };
}

/** Throws `account_disabled` (403) when the account is disabled. */
export function assertAccountEnabled(deps: AuthDeps, userId: string): void {
  if (accountAccess(deps, userId).disabled) throw new AppError('account_disabled');
}

/**
 * Disables or enables the account, by the administrator `by`. False when it already was in that
 * state (nothing written). A change racing another one of the same account is refused
 * (`conflict`), never applied on top of a state it did not see.
 */
export function setAccountDisabled(deps: AuthDeps, userId: string, disabled: boolean, by: string): boolean {
  const current = accountAccess(deps, userId);
  if (current.disabled === disabled) return false;
  const data: AccountDisabled | AccountEnabled = { user_id: userId, by, at: deps.platform.now() };
  const expected = current.revision === 0n ? ({ tag: 'no-stream' } as const) : ({ tag: 'exact', val: current.revision } as const);
  try {
    deps.platform.events.append(authStreams.access(userId), expected, [authEvent(disabled ? 'auth_account_disabled' : 'auth_account_enabled', data)]);
  } catch (error) {
    if (isStoreConflict(error)) throw new AppError('conflict', 'the account was changed concurrently, try again', { cause: error });
    throw AppError.fromStore(error);
  }
  projectAfterResponse(deps.platform);
  return true;
}
