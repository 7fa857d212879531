/**
 * The `auth_projection`: folds auth events from the global log into the read models something
 * reads: `auth_users` (the dashboard, the administration API's user list: user-list.ts),
 * `auth_user_sessions` (the session list) and `auth_session_ends` (when each session ends, in time
 * order: retention.ts removes ended sessions' streams from it), moving its own checkpoint in the
 * same transaction (projection-store `commit`). No document id holds an address: an account's
 * documents are keyed by its random id, so erasing them leaves no address in a store's names.
 * Safe to run from many instances at once: a commit that loses the race changes nothing and the
 * run stops. Documents hold no secret (sessions are named by the session id's hash).
 */
import type { DocumentChange, Platform, RecordedEvent } from '../../platform/ports.ts';
import { firstShape, readDocumentBody, writeDocumentBody, type StoredShape } from '../../platform/schema-version.ts';
import type {
  AccountDisabled,
  AccountEnabled,
  EmailChanged,
  ExternalIdentityLinked,
  ExternalIdentityUnlinked,
  ExternalUserRegistered,
  PasswordUserRegistered,
  SessionIssued,
  SessionRevoked,
} from '../domain/events.ts';
import { payloadOf } from './event-codec.ts';

export const AUTH_PROJECTION = 'auth_projection';
export const AUTH_COLLECTIONS = { users: 'auth_users', userSessions: 'auth_user_sessions', sessionEnds: 'auth_session_ends' } as const;

/**
 * The id of a session's entry in `auth_session_ends`: its end (epoch ms, zero-padded so ids sort
 * in time order) and its hash. Until it is revoked a session ends at its absolute expiry.
 */
export function sessionEndId(endsAt: number, sessionHash: string): string {
  return `${String(Math.max(0, Math.trunc(endsAt))).padStart(15, '0')}:${sessionHash}`;
}

/** The end (epoch ms) and session hash an `auth_session_ends` id names. */
export function parseSessionEndId(id: string): { endsAt: number; sessionHash: string } {
  const colon = id.indexOf(':');
  return { endsAt: Number(id.slice(0, colon)), sessionHash: id.slice(colon + 1) };
}

/** Each collection's document shape: the version written now and the steps from older ones (src/platform/schema-version.ts). */
const SHAPES = new Map<string, StoredShape>(Object.values(AUTH_COLLECTIONS).map((collection) => [collection, firstShape(`${collection} document`)]));
const shapeOf = (collection: string): StoredShape => SHAPES.get(collection) ?? firstShape(`${collection} document`);

/** An auth document's body as today's code reads it, upcast from any older shape (the one reader of stored auth documents). */
export function readAuthDocument<T>(collection: string, body: string): T {
  return readDocumentBody(shapeOf(collection), body) as T;
}

/** An auth document's body as stored, with its schema version. */
export function writeAuthDocument(collection: string, body: object): string {
  return writeDocumentBody(shapeOf(collection), body);
}

/** One user's live sessions (collection `auth_user_sessions`, id = user id): the session list reads it. */
export interface UserSessionsDocument {
  sessions: Array<{ handle: string; session_hash: string; device: string; issued_at: number; expires_at: number }>;
}

/** The user's entries in `auth_user_sessions` (none without a document). Store failures propagate. */
export function userSessionEntries(platform: Platform, userId: string): UserSessionsDocument['sessions'] {
  const doc = platform.projections.getDocument({ collection: AUTH_COLLECTIONS.userSessions, id: userId });
  return doc ? (readDocumentBody(shapeOf(AUTH_COLLECTIONS.userSessions), doc.body) as unknown as UserSessionsDocument).sessions : [];
}

const PAGE_SIZE = 500;

/** One user (collection `auth_users`, id = user id): the dashboard reads it, account deletion finds the user's identities in it. */
export interface UserDocument {
  user_id: string;
  email: string | null;
  registered_at: number;
  registered_with: string;
  last_login_at: number | null;
  providers: string[];
  /** The linked external identities (absent on documents written before it existed). */
  identities?: Array<{ provider: string; subject_hash: string }>;
  /** An administrator disabled the account (absent: never disabled). */
  disabled?: boolean;
}

/** Documents changed during one page, so several events on one document fold together. */
class PageChanges {
  readonly #docs = new Map<string, { collection: string; id: string; body: unknown }>();
  readonly #platform: Platform;
  constructor(platform: Platform) {
    this.#platform = platform;
  }

  get<T>(collection: string, id: string): T | undefined {
    const key = `${collection}/${id}`;
    const pending = this.#docs.get(key);
    if (pending) return pending.body as T | undefined;
    const stored = this.#platform.projections.getDocument({ collection, id });
    return stored ? (readDocumentBody(shapeOf(collection), stored.body) as T) : undefined;
  }

  put(collection: string, id: string, body: unknown): void {
    this.#docs.set(`${collection}/${id}`, { collection, id, body });
  }

  delete(collection: string, id: string): void {
    this.#docs.set(`${collection}/${id}`, { collection, id, body: undefined });
  }

  list(): DocumentChange[] {
    return [...this.#docs.values()].map(({ collection, id, body }) =>
      body === undefined ? { tag: 'delete', val: { collection, id } } : { tag: 'put', val: { collection, id, body: writeDocumentBody(shapeOf(collection), body as object) } },
    );
  }
}

function apply(changes: PageChanges, event: RecordedEvent): void {
  const at = Number(event.recordedAt);
  switch (event.eventType) {
    case 'auth_password_user_registered':
    case 'auth_external_user_registered': {
      const data = payloadOf<PasswordUserRegistered | ExternalUserRegistered>(event);
      const provider = 'provider' in data ? data.provider : undefined;
      const user: UserDocument = {
        user_id: data.user_id,
        email: data.email,
        registered_at: at,
        registered_with: provider ? `oauth:${provider}` : 'password',
        last_login_at: null,
        providers: [],
      };
      changes.put(AUTH_COLLECTIONS.users, data.user_id, user);
      return;
    }
    case 'auth_account_disabled':
    case 'auth_account_enabled': {
      const userId = payloadOf<AccountDisabled | AccountEnabled>(event).user_id;
      const user = changes.get<UserDocument>(AUTH_COLLECTIONS.users, userId);
      if (!user) return;
      changes.put(AUTH_COLLECTIONS.users, userId, { ...user, disabled: event.eventType === 'auth_account_disabled' } satisfies UserDocument);
      return;
    }
    case 'auth_password_login_succeeded': {
      const userId = payloadOf<{ user_id: string }>(event).user_id;
      const user = changes.get<UserDocument>(AUTH_COLLECTIONS.users, userId);
      if (user) changes.put(AUTH_COLLECTIONS.users, userId, { ...user, last_login_at: at });
      return;
    }
    case 'auth_session_issued': {
      const data = payloadOf<SessionIssued>(event);
      const id = event.streamId.replace(/^auth-session-/, '');
      changes.put(AUTH_COLLECTIONS.sessionEnds, sessionEndId(data.expires_at, id), { user_id: data.user_id });
      if (data.handle) {
        // Sessions past their absolute expiry drop out here, so the list stays bounded.
        const live = (changes.get<UserSessionsDocument>(AUTH_COLLECTIONS.userSessions, data.user_id)?.sessions ?? []).filter((s) => s.expires_at > at);
        const entry = { handle: data.handle, session_hash: id, device: data.device ?? 'Unknown device', issued_at: data.issued_at, expires_at: data.expires_at };
        changes.put(AUTH_COLLECTIONS.userSessions, data.user_id, { sessions: [...live, entry] } satisfies UserSessionsDocument);
      }
      return;
    }
    case 'auth_session_revoked': {
      const id = event.streamId.replace(/^auth-session-/, '');
      const revoked = payloadOf<SessionRevoked>(event);
      const list = changes.get<UserSessionsDocument>(AUTH_COLLECTIONS.userSessions, revoked.user_id);
      // The session now ends when it was revoked: its retention counts from then.
      const listed = list?.sessions.find((s) => s.session_hash === id);
      if (listed) changes.delete(AUTH_COLLECTIONS.sessionEnds, sessionEndId(listed.expires_at, id));
      changes.put(AUTH_COLLECTIONS.sessionEnds, sessionEndId(revoked.revoked_at, id), { user_id: revoked.user_id });
      if (list) changes.put(AUTH_COLLECTIONS.userSessions, revoked.user_id, { sessions: list.sessions.filter((s) => s.session_hash !== id) } satisfies UserSessionsDocument);
      return;
    }
    case 'auth_external_identity_linked': {
      const data = payloadOf<ExternalIdentityLinked>(event);
      const user = changes.get<UserDocument>(AUTH_COLLECTIONS.users, data.user_id);
      if (user) {
        const providers = user.providers.includes(data.provider) ? user.providers : [...user.providers, data.provider];
        const identities = [...(user.identities ?? []), { provider: data.provider, subject_hash: data.subject_hash }];
        changes.put(AUTH_COLLECTIONS.users, data.user_id, { ...user, providers, identities });
      }
      return;
    }
    case 'auth_external_identity_unlinked': {
      const data = payloadOf<ExternalIdentityUnlinked>(event);
      const user = changes.get<UserDocument>(AUTH_COLLECTIONS.users, data.user_id);
      if (user) {
        const identities = (user.identities ?? []).filter((i) => !(i.provider === data.provider && i.subject_hash === data.subject_hash));
        // A document from before `identities` existed knows providers only: the provider goes with its one identity.
        const providers =
          user.identities === undefined || !identities.some((i) => i.provider === data.provider) ? user.providers.filter((p) => p !== data.provider) : user.providers;
        changes.put(AUTH_COLLECTIONS.users, data.user_id, { ...user, providers, identities });
      }
      return;
    }
    case 'auth_email_changed': {
      // An address change (email-change.ts): the account's address is the new one.
      const data = payloadOf<EmailChanged>(event);
      const user = changes.get<UserDocument>(AUTH_COLLECTIONS.users, data.user_id);
      if (user) changes.put(AUTH_COLLECTIONS.users, data.user_id, { ...user, email: data.email });
      return;
    }
    default:
      // Other streams (the counter, OAuth states) share the global sequence; they only move the checkpoint.
      return;
  }
}

export interface AuthProjectionRun {
  checkpoint: bigint;
  superseded: boolean;
}

/** Catches the projection up with the event log. Throws on store failure. */
export function runAuthProjection(platform: Platform): AuthProjectionRun {
  let checkpoint = platform.projections.checkpoint(AUTH_PROJECTION);
  for (;;) {
    const page = platform.events.readAll(checkpoint, PAGE_SIZE);
    const last = page.at(-1);
    if (last === undefined) return { checkpoint, superseded: false };
    const changes = new PageChanges(platform);
    for (const event of page) if (event.eventType.startsWith('auth_')) apply(changes, event);
    if (!platform.projections.commit(AUTH_PROJECTION, checkpoint, last.sequence, changes.list())) return { checkpoint, superseded: true };
    checkpoint = last.sequence;
    if (page.length < PAGE_SIZE) return { checkpoint, superseded: false };
  }
}

/**
 * After a write: the read models catch up once the response is sent, one run per request however
 * many writes it made (the task is keyed); a failure is logged, never answered.
 */
export function projectAfterResponse(platform: Platform): void {
  platform.afterResponse(AUTH_PROJECTION, () => runAuthProjectionQuietly(platform));
}

/** Before a read of the read models: they catch up, but a failure here never fails the request. */
export function runAuthProjectionQuietly(platform: Platform): void {
  try {
    runAuthProjection(platform);
  } catch (error) {
    platform.logger.log('warn', 'auth projection failed', {
      code: 'projection_failed',
      projection: AUTH_PROJECTION,
      error: error instanceof Error ? error.message : String(error),
    });
  }
}
