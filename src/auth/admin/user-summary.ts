/**
 * What an administrator sees of one account: when it was made and how, its address and whether it
 * is verified, how it can sign in (password, passkeys by name, linked providers), its live
 * sessions (by their public handle, with device hint and times) and whether it is disabled.
 * Never a hash, a token, a session id, a provider subject or a passkey's key material: those stay
 * in the streams they are kept in.
 */
import { AppError } from '../../errors.ts';
import { accountAccess } from '../application/account-access.ts';
import { findAccountByEmailHash } from '../application/accounts.ts';
import type { AuthDeps } from '../application/deps.ts';
import { AUTH_COLLECTIONS, readAuthDocument, runAuthProjectionQuietly, type UserDocument } from '../application/projection.ts';
import { sha256Hex } from '../application/secrets.ts';
import { listUserSessions } from '../application/user-sessions.ts';
import { readCredentialUse, readPasskeys } from '../passkeys/store.ts';

export interface UserSummary {
  id: string;
  email: string | null;
  emailVerified: boolean;
  createdAt: number;
  /** `password` or `oauth:<provider>` */
  registeredWith: string;
  disabled: boolean;
  /** when and by whom it was last disabled or enabled */
  accessChangedAt: number | undefined;
  accessChangedBy: string | undefined;
  /** `password`, `passkey`, `oauth:<provider>`: the ways in this account has now */
  signInMethods: string[];
  providers: string[];
  passkeys: Array<{ name: string; createdAt: number; lastUsedAt: number | undefined; synced: boolean }>;
  sessions: Array<{ handle: string; device: string; method: string; issuedAt: number; lastSeenAt: number; expiresAt: number }>;
}

/** The account's `auth_users` document after the projection caught up; 404 `not_found` when there is none. */
export function userDocument(deps: AuthDeps, userId: string): UserDocument {
  runAuthProjectionQuietly(deps.platform);
  let stored;
  try {
    stored = deps.platform.projections.getDocument({ collection: AUTH_COLLECTIONS.users, id: userId });
  } catch (error) {
    throw AppError.fromStore(error);
  }
  if (!stored) throw new AppError('not_found', 'no such user');
  return readAuthDocument<UserDocument>(AUTH_COLLECTIONS.users, stored.body);
}

/** The password and verification state of the account's address (none without an address it owns). */
async function addressFacts(deps: AuthDeps, user: UserDocument): Promise<{ verified: boolean; password: boolean }> {
  if (user.email === null) return { verified: false, password: false };
  const account = findAccountByEmailHash(deps.platform, await sha256Hex(user.email));
  if (!account || account.userId !== user.user_id) return { verified: false, password: false };
  return { verified: account.emailVerified, password: account.passwordHash !== undefined };
}

export async function userSummary(deps: AuthDeps, userId: string): Promise<UserSummary> {
  const user = userDocument(deps, userId);
  const address = await addressFacts(deps, user);
  const passkeys = [...readPasskeys(deps, userId).values()].map((passkey) => ({
    name: passkey.name,
    createdAt: passkey.created_at,
    lastUsedAt: readCredentialUse(deps, passkey.passkey_id)?.lastUsedAt,
    synced: passkey.backed_up,
  }));
  const access = accountAccess(deps, userId);
  const sessions = listUserSessions(deps, userId).map((s) => ({
    handle: s.id,
    device: s.device,
    method: s.method,
    issuedAt: s.issuedAt,
    lastSeenAt: s.lastSeenAt,
    expiresAt: s.expiresAt,
  }));
  return {
    id: user.user_id,
    email: user.email,
    emailVerified: address.verified,
    createdAt: user.registered_at,
    registeredWith: user.registered_with,
    disabled: access.disabled,
    accessChangedAt: access.changedAt,
    accessChangedBy: access.changedBy,
    signInMethods: [...(address.password ? ['password'] : []), ...(passkeys.length > 0 ? ['passkey'] : []), ...user.providers.map((p) => `oauth:${p}`)],
    providers: [...user.providers],
    passkeys,
    sessions,
  };
}
