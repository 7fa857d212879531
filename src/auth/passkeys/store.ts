/**
 * Reading and writing the passkey streams (./events.ts). Store failures become AppErrors.
 */
import type { NewEvent } from '../../platform/ports.ts';
import type { AuthDeps } from '../application/deps.ts';
import { authEvent, payloadOf } from '../application/event-codec.ts';
import { AppError, StoreError } from '../../errors.ts';
import type { PasskeyClaimed, PasskeyRegistered, PasskeyUsed } from './events.ts';
import { evolvePasskeys, type PasskeyListEvent } from './passkey-list.ts';

export const passkeyStreams = {
  list: (userId: string) => `auth-passkeys-${userId}`,
  credential: (passkeyId: string) => `auth-passkey-${passkeyId}`,
} as const;

/** The user's passkeys, by passkey id, in registration order. */
export function readPasskeys(deps: AuthDeps, userId: string): Map<string, PasskeyRegistered> {
  let list = new Map<string, PasskeyRegistered>();
  try {
    for (const event of deps.platform.events.readStream(passkeyStreams.list(userId), { direction: 'forward', limit: 1000 }))
      list = evolvePasskeys(list, { type: event.eventType, data: payloadOf(event) } as PasskeyListEvent);
  } catch (error) {
    throw AppError.fromStore(error);
  }
  return list;
}

/** Every passkey the user ever registered, removed ones included: account deletion erases each one's stream. */
export function everRegisteredPasskeyIds(deps: AuthDeps, userId: string): string[] {
  const ids = new Set<string>();
  try {
    for (const event of deps.platform.events.readStream(passkeyStreams.list(userId), { direction: 'forward', limit: 1000 })) {
      const passkeyId = payloadOf<{ passkey_id?: unknown }>(event).passkey_id;
      if (typeof passkeyId === 'string') ids.add(passkeyId);
    }
  } catch (error) {
    throw AppError.fromStore(error);
  }
  return [...ids];
}

export function appendToList(deps: AuthDeps, userId: string, event: NewEvent): void {
  try {
    deps.platform.events.append(passkeyStreams.list(userId), { tag: 'any' }, [event]);
  } catch (error) {
    throw AppError.fromStore(error);
  }
}

/** A credential's newest state: its owner, the counter last seen, when last used, the stream revision. */
export interface CredentialUse {
  userId: string;
  counter: number;
  lastUsedAt: number | undefined;
  revision: bigint;
}

export function readCredentialUse(deps: AuthDeps, passkeyId: string): CredentialUse | undefined {
  let newest;
  try {
    newest = deps.platform.events.readStream(passkeyStreams.credential(passkeyId), { direction: 'backward', limit: 1 })[0];
  } catch (error) {
    throw AppError.fromStore(error);
  }
  if (!newest) return undefined;
  const data = payloadOf<PasskeyClaimed | PasskeyUsed>(newest);
  return { userId: data.user_id, counter: data.counter, lastUsedAt: 'used_at' in data ? data.used_at : undefined, revision: newest.revision };
}

/** Claims a credential id for `userId`; false when it is already claimed (by anyone). */
export function claimCredential(deps: AuthDeps, passkeyId: string, claim: PasskeyClaimed): boolean {
  try {
    deps.platform.events.append(passkeyStreams.credential(passkeyId), { tag: 'no-stream' }, [authEvent('auth_passkey_claimed', claim)]);
    return true;
  } catch (error) {
    const failure = AppError.fromStore(error);
    if (failure.code === 'conflict') return false;
    throw failure;
  }
}

/**
 * Records a sign-in with the new counter, against the revision read: false when another use came
 * first. Then drops the credential's older events (event-store `truncate-before` the new revision):
 * the newest alone is its state, so the stream stays one event however often the passkey signs in.
 * The revision is unchanged by it, so the next use's exact append still checks the counter
 * atomically. A failed truncation is logged and harmless: the next use truncates everything below
 * its own revision.
 */
export function recordUse(deps: AuthDeps, passkeyId: string, expected: bigint, use: PasskeyUsed): boolean {
  const stream = passkeyStreams.credential(passkeyId);
  let revision: bigint;
  try {
    const [recorded] = deps.platform.events.append(stream, { tag: 'exact', val: expected }, [authEvent('auth_passkey_used', use)]);
    revision = recorded?.revision ?? expected + 1n;
  } catch (error) {
    const failure = AppError.fromStore(error);
    if (failure.code === 'conflict') return false;
    throw failure;
  }
  try {
    deps.platform.events.truncateBefore(stream, revision);
  } catch (error) {
    deps.platform.logger.log('warn', 'passkey use history not truncated', { code: 'auth_passkey_truncate_failed', error: error instanceof StoreError ? error.kind : 'unknown' });
  }
  return true;
}
