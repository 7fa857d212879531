/**
 * Finding accounts by address: the `auth_user_index` read model (projection.ts) holds one document
 * per account, its id the normalized address, a space and the user id. The projection store lists
 * a collection's documents in id order after a given id on every backend (WIT `list-documents`),
 * so the accounts whose address starts with a prefix are one run of ids starting at the prefix,
 * read a page at a time: one store read per page, in a stable order (by address, then user id),
 * and a page's cursor is the id it ended at. No new host capability: the index is documents.
 *
 * Stores written before the index existed get it from `runUserIndexBackfill` (maintenance), which
 * copies every `auth_users` document's entry once.
 */
import { AppError } from '../../errors.ts';
import type { DocumentChange } from '../../platform/ports.ts';
import type { AuthDeps } from './deps.ts';
import {
  AUTH_COLLECTIONS,
  AUTH_PROJECTION,
  readAuthDocument,
  runAuthProjection,
  runAuthProjectionQuietly,
  userIndexId,
  writeAuthDocument,
  type UserDocument,
  type UserIndexDocument,
} from './projection.ts';

/** Most accounts one page lists. */
export const MAX_USER_PAGE = 100;

export interface UserPage {
  users: UserIndexDocument[];
  /** the id to continue after (absent on the last page) */
  next: string | undefined;
}

/**
 * Accounts whose normalized address starts with `prefix` ('' for every account, those without an
 * address first), `limit` of them after the entry `cursor` names (a page's `next`).
 */
export function listUsers(deps: AuthDeps, prefix: string, cursor: string | undefined, limit: number): UserPage {
  const { platform } = deps;
  runAuthProjectionQuietly(platform);
  // Every entry of the prefix's run sorts after the prefix itself; a cursor from a page of the same
  // prefix lies within the run, one from elsewhere at worst ends the list.
  const after = cursor !== undefined && cursor > prefix ? cursor : prefix === '' ? undefined : prefix;
  let documents;
  try {
    documents = platform.projections.listDocuments(AUTH_COLLECTIONS.userIndex, after, limit + 1);
  } catch (error) {
    throw AppError.fromStore(error);
  }
  const run = [];
  for (const document of documents) {
    if (!document.id.startsWith(prefix)) break;
    run.push(document);
  }
  const page = run.slice(0, limit);
  return {
    users: page.map((document) => readAuthDocument<UserIndexDocument>(AUTH_COLLECTIONS.userIndex, document.body)),
    next: run.length > limit ? page.at(-1)?.id : undefined,
  };
}

const PROGRESS = { collection: 'auth_backfill', id: 'user-index' } as const;
const PAGE = 200;
/** Pages per pass at most: a bigger store is finished by the next passes. */
const MAX_PAGES = 50;

interface Progress {
  /** the last `auth_users` id copied ('' before the first) */
  after: string;
  done: boolean;
}

export interface UserIndexBackfillPass {
  /** accounts copied into the index in this pass */
  users: number;
  done: boolean;
}

/**
 * Copies `auth_users` into `auth_user_index`, a page per commit at the projection's own checkpoint
 * (next = expected): a projection run that moved it first (a registration, a disable) makes the
 * page retry on the newer documents. Done once, a pass costs one read. Store failures propagate.
 */
export function runUserIndexBackfill(deps: AuthDeps): UserIndexBackfillPass {
  const { platform } = deps;
  let users = 0;
  for (let page = 0; page < MAX_PAGES; page++) {
    const stored = platform.projections.getDocument(PROGRESS);
    const progress = stored ? readAuthDocument<Progress>(PROGRESS.collection, stored.body) : { after: '', done: false };
    if (progress.done) return { users, done: true };
    const { checkpoint } = runAuthProjection(platform);
    const read = platform.projections.listDocuments(AUTH_COLLECTIONS.users, progress.after === '' ? undefined : progress.after, PAGE);
    const done = read.length < PAGE;
    const next: Progress = { after: read.at(-1)?.id ?? progress.after, done };
    const changes: DocumentChange[] = read.map((document) => {
      const user = readAuthDocument<UserDocument>(AUTH_COLLECTIONS.users, document.body);
      const entry: UserIndexDocument = { user_id: user.user_id, email: user.email, registered_at: user.registered_at, disabled: user.disabled === true };
      const id = userIndexId(user.email, user.user_id);
      return { tag: 'put', val: { collection: AUTH_COLLECTIONS.userIndex, id, body: writeAuthDocument(AUTH_COLLECTIONS.userIndex, entry) } };
    });
    changes.push({ tag: 'put', val: { ...PROGRESS, body: writeAuthDocument(PROGRESS.collection, next) } });
    if (!platform.projections.commit(AUTH_PROJECTION, checkpoint, checkpoint, changes)) continue;
    users += read.length;
    if (done) return { users, done: true };
  }
  return { users, done: false };
}
