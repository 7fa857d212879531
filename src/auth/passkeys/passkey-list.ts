/**
 * A user's passkeys folded from `auth-passkeys-<user id>`. Pure: the list as the account page and
 * `GET /api/auth/passkeys` show it, removed ones gone.
 */
import type { PasskeyRegistered, PasskeyRemoved, PasskeyRenamed } from './events.ts';

export type PasskeyListEvent =
  | { type: 'auth_passkey_registered'; data: PasskeyRegistered }
  | { type: 'auth_passkey_renamed'; data: PasskeyRenamed }
  | { type: 'auth_passkey_removed'; data: PasskeyRemoved };

/** Most passkeys one account keeps: registration beyond it is refused (the list stays short to read). */
export const MAX_PASSKEYS_PER_USER = 20;

/** Longest name, in UTF-16 code units. */
export const MAX_PASSKEY_NAME_LENGTH = 64;

export function evolvePasskeys(list: ReadonlyMap<string, PasskeyRegistered>, event: PasskeyListEvent): Map<string, PasskeyRegistered> {
  const next = new Map(list);
  switch (event.type) {
    case 'auth_passkey_registered':
      next.set(event.data.passkey_id, event.data);
      break;
    case 'auth_passkey_renamed': {
      const found = next.get(event.data.passkey_id);
      if (found) next.set(found.passkey_id, { ...found, name: event.data.name });
      break;
    }
    case 'auth_passkey_removed':
      next.delete(event.data.passkey_id);
      break;
  }
  return next;
}

/** A name as stored: trimmed, control characters out, at most MAX_PASSKEY_NAME_LENGTH; empty → undefined. */
export function cleanPasskeyName(name: string): string | undefined {
  const visible = Array.from(name, (ch) => (ch.charCodeAt(0) < 0x20 || ch === '\u007f' ? ' ' : ch)).join('');
  const cleaned = visible.trim().slice(0, MAX_PASSKEY_NAME_LENGTH).trim();
  return cleaned === '' ? undefined : cleaned;
}
