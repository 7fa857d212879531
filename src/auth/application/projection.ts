/**
 * The `auth_projection`: folds auth events from the global log into three read models,
 * `auth_users`, `auth_sessions` and `auth_identities`, moving its own checkpoint in the same
 * transaction (projection-store `commit`). Safe to run from many instances at once: a commit that
 * loses the race changes nothing and the run stops. Documents hold no secret (session documents
 * are keyed by the session id's hash).
 */
import type { DocumentChange, Platform, RecordedEvent } from '../../platform/ports.ts';
import { firstShape, readDocumentBody, writeDocumentBody, type StoredShape } from '../../platform/schema-version.ts';
import type { ExternalIdentityLinked, ExternalUserRegistered, PasswordUserRegistered, SessionIssued, SessionRevoked } from '../domain/events.ts';
import { payloadOf } from './event-codec.ts';

export const AUTH_PROJECTION = 'auth_projection';
export const AUTH_COLLECTIONS = { users: 'auth_users', sessions: 'auth_sessions', identities: 'auth_identities', userSessions: 'auth_user_sessions' } as const;

/** Each collection's document shape: the version written now and the steps from older ones (src/platform/schema-version.ts). */
const SHAPES = new Map<string, StoredShape>(Object.values(AUTH_COLLECTIONS).map((collection) => [collection, firstShape(`${collection} document`)]));
const shapeOf = (collection: string): StoredShape => SHAPES.get(collection) ?? firstShape(`${collection} document`);

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

interface UserDocument {
  user_id: string;
  email: string | null;
  registered_at: number;
  registered_with: string;
  last_login_at: number | null;
  providers: string[];
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
    if (pending) return pending.body as T;
    const stored = this.#platform.projections.getDocument({ collection, id });
    return stored ? (readDocumentBody(shapeOf(collection), stored.body) as T) : undefined;
  }

  put(collection: string, id: string, body: unknown): void {
    this.#docs.set(`${collection}/${id}`, { collection, id, body });
  }

  list(): DocumentChange[] {
    return [...this.#docs.values()].map(({ collection, id, body }) => ({ tag: 'put', val: { collection, id, body: writeDocumentBody(shapeOf(collection), body as object) } }));
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
    case 'auth_password_login_succeeded': {
      const userId = payloadOf<{ user_id: string }>(event).user_id;
      const user = changes.get<UserDocument>(AUTH_COLLECTIONS.users, userId);
      if (user) changes.put(AUTH_COLLECTIONS.users, userId, { ...user, last_login_at: at });
      return;
    }
    case 'auth_session_issued': {
      const data = payloadOf<SessionIssued>(event);
      const id = event.streamId.replace(/^auth-session-/, '');
      changes.put(AUTH_COLLECTIONS.sessions, id, {
        user_id: data.user_id,
        aal: data.aal,
        method: data.method,
        issued_at: data.issued_at,
        expires_at: data.expires_at,
        revoked_at: null,
      });
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
      const session = changes.get<Record<string, unknown>>(AUTH_COLLECTIONS.sessions, id);
      const revoked = payloadOf<SessionRevoked>(event);
      if (session) changes.put(AUTH_COLLECTIONS.sessions, id, { ...session, revoked_at: revoked.revoked_at });
      const list = changes.get<UserSessionsDocument>(AUTH_COLLECTIONS.userSessions, revoked.user_id);
      if (list) changes.put(AUTH_COLLECTIONS.userSessions, revoked.user_id, { sessions: list.sessions.filter((s) => s.session_hash !== id) } satisfies UserSessionsDocument);
      return;
    }
    case 'auth_external_identity_linked': {
      const data = payloadOf<ExternalIdentityLinked>(event);
      changes.put(AUTH_COLLECTIONS.identities, `${data.provider}:${data.subject_hash}`, { user_id: data.user_id, provider: data.provider, linked_at: at });
      const user = changes.get<UserDocument>(AUTH_COLLECTIONS.users, data.user_id);
      if (user && !user.providers.includes(data.provider)) changes.put(AUTH_COLLECTIONS.users, data.user_id, { ...user, providers: [...user.providers, data.provider] });
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

/** After a write: the read models catch up, but a failure here never fails the request. */
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
