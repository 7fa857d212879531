/**
 * Finding accounts for the administration API: a bounded scan of `auth_users` (projection.ts, one
 * document per account, its id the user id), filtered here by address prefix. The projection store
 * lists a collection's documents in id order after a given id on every backend (WIT
 * `list-documents`), so the order is stable (by user id) and a page's cursor is the id the scan
 * stopped at.
 *
 * There is no index keyed by the address on purpose: a document or a document id holding the
 * address would have to be erased with the account, and a store's files keep document ids in more
 * places than its bodies (the file store's directory names, its newest commit). `auth_users` is
 * removed whole by the erasure. The price: a search costs O(accounts), read at most
 * MAX_SCANNED documents per request; a page can hold fewer accounts than asked for (even none)
 * while `next` says where the scan goes on.
 */
import { AppError } from '../../errors.ts';
import type { AuthDeps } from './deps.ts';
import { AUTH_COLLECTIONS, readAuthDocument, runAuthProjectionQuietly, type UserDocument } from './projection.ts';

/** Most accounts one page lists. */
export const MAX_USER_PAGE = 100;
/** Most `auth_users` documents one request reads (one store read: WIT `list-documents` allows 1000). */
export const MAX_SCANNED = 1000;

/** One line of the user list. */
export interface ListedUser {
  user_id: string;
  email: string | null;
  registered_at: number;
  disabled: boolean;
}

export interface UserPage {
  users: ListedUser[];
  /** the user id the scan goes on after (absent once every account was scanned) */
  next: string | undefined;
}

/**
 * Accounts whose normalized address starts with `prefix` ('' for every account, those without an
 * address too), at most `limit` of them, scanning at most `scanned` accounts in user id order after
 * `cursor` (a page's `next`).
 */
export function listUsers(deps: AuthDeps, prefix: string, cursor: string | undefined, limit: number, scanned = MAX_SCANNED): UserPage {
  const { platform } = deps;
  runAuthProjectionQuietly(platform);
  let documents;
  try {
    documents = platform.projections.listDocuments(AUTH_COLLECTIONS.users, cursor, scanned);
  } catch (error) {
    throw AppError.fromStore(error);
  }
  // A full read may have more after it; a short one reached the end.
  const more = documents.length === scanned;
  const users: ListedUser[] = [];
  for (const document of documents) {
    const user = readAuthDocument<UserDocument>(AUTH_COLLECTIONS.users, document.body);
    if (prefix !== '' && !(user.email ?? '').startsWith(prefix)) continue;
    // One more match than the page holds: the next page starts after the page's last account.
    if (users.length === limit) return { users, next: users.at(-1)?.user_id };
    users.push({ user_id: user.user_id, email: user.email, registered_at: user.registered_at, disabled: user.disabled === true });
  }
  return { users, next: more ? documents.at(-1)?.id : undefined };
}
