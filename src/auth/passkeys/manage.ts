/**
 * The signed-in user's passkeys: list (with when each was last used), rename, remove. A passkey
 * id that is not one of the user's answers 404, as for sessions. Removing a passkey ends its use
 * for sign-in at once (the assertion check reads the list); the authenticator keeps the key, which
 * no longer signs anyone in (WebAuthn Level 3 §6.1.3 notes that only the RP can forget it).
 */
import { AppError } from '../../errors.ts';
import type { AuthDeps } from '../application/deps.ts';
import { authEvent } from '../application/event-codec.ts';
import type { PasskeyRegistered, PasskeyRemoved, PasskeyRenamed } from './events.ts';
import { cleanPasskeyName } from './passkey-list.ts';
import { appendToList, readCredentialUse, readPasskeys } from './store.ts';

export interface PasskeySummary {
  id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
  backed_up: boolean;
  transports: string[];
}

export function passkeySummary(deps: AuthDeps, passkey: PasskeyRegistered): PasskeySummary {
  const lastUsedAt = readCredentialUse(deps, passkey.passkey_id)?.lastUsedAt;
  return {
    id: passkey.passkey_id,
    name: passkey.name,
    created_at: new Date(passkey.created_at).toISOString(),
    last_used_at: lastUsedAt === undefined ? null : new Date(lastUsedAt).toISOString(),
    backed_up: passkey.backed_up,
    transports: passkey.transports,
  };
}

export function listPasskeys(deps: AuthDeps, userId: string): PasskeySummary[] {
  return [...readPasskeys(deps, userId).values()].map((p) => passkeySummary(deps, p));
}

function ownPasskey(deps: AuthDeps, userId: string, passkeyId: string): PasskeyRegistered {
  const found = readPasskeys(deps, userId).get(passkeyId);
  if (!found) throw new AppError('not_found', 'no such passkey');
  return found;
}

export function renamePasskey(deps: AuthDeps, userId: string, passkeyId: string, name: string): PasskeySummary {
  const found = ownPasskey(deps, userId, passkeyId);
  const cleaned = cleanPasskeyName(name);
  if (cleaned === undefined) throw new AppError('validation', 'name must not be empty');
  const data: PasskeyRenamed = { passkey_id: passkeyId, name: cleaned };
  appendToList(deps, userId, authEvent('auth_passkey_renamed', data));
  return passkeySummary(deps, { ...found, name: cleaned });
}

/**
 * Removes one passkey; the one removed. Callers check that another way in remains first
 * (src/auth/application/sign-in-method-removal.ts).
 */
export function removePasskey(deps: AuthDeps, userId: string, passkeyId: string): PasskeyRegistered {
  const found = ownPasskey(deps, userId, passkeyId);
  const data: PasskeyRemoved = { passkey_id: passkeyId, removed_at: deps.platform.now() };
  appendToList(deps, userId, authEvent('auth_passkey_removed', data));
  return found;
}
