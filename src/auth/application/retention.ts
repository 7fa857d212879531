/**
 * Retention of ended sessions, run by maintenance (not by requests). A session ends at its
 * absolute expiry, when revoked (sign-out, revoke, a newer sign-in beyond the per-user limit) or
 * by idling; `auth_session_ends` lists every session not yet handled by the time it ends (the
 * projection keeps it, projection.ts). A pass:
 * 1. takes the sessions that have ended off their user's session list (revoked ones are off
 *    already), so the read models hold live sessions only; their entries move to
 *    `auth_ended_sessions`, in the order they ended;
 * 2. removes the streams of sessions ended more than AUTH_SESSION_RETENTION_SECONDS ago
 *    (event-store `remove-stream`) and their last-seen entries, and drops their entries. A
 *    session's stream holds the sign-in's own trace too (sessions.ts), which goes with it. A store
 *    from before kept password sign-in traces in the user's stream: the first pass that removes a
 *    session of that user removes that stream too when it holds sign-in traces only.
 * Idle sessions are detected at their absolute expiry (their idle end is known only to the
 * key-value TTL). Document changes commit at the projection's own checkpoint (next = expected),
 * so a projection run that moved it first wins and the pass retries on the newer state; removing
 * a stream twice removes nothing the second time. The auth event counts stay exact: the store
 * keeps removed events in its per-type totals.
 */
import type { DocumentChange, Platform } from '../../platform/ports.ts';
import type { AuthDeps } from './deps.ts';
import { AUTH_COLLECTIONS, AUTH_PROJECTION, parseSessionEndId, readAuthDocument, runAuthProjection, writeAuthDocument, type UserSessionsDocument } from './projection.ts';
import { authNamespaces, authStreams } from './streams.ts';

/** Sessions ended and waiting out their retention (id as in `auth_session_ends`). */
export const ENDED_SESSIONS = 'auth_ended_sessions';

/** Entries handled per commit. */
const BATCH = 500;
/** Commits per pass at most: a backlog beyond is left to the next pass. */
const MAX_BATCHES = 200;

export interface RetentionPass {
  /** sessions taken off their user's list */
  ended: number;
  /** session streams removed */
  removed: number;
  /** true when work was left for the next pass */
  more: boolean;
}

interface Entry {
  id: string;
  endsAt: number;
  sessionHash: string;
  userId: string;
}

function entries(platform: Platform, collection: string, until: number): Entry[] {
  const out: Entry[] = [];
  for (const doc of platform.projections.listDocuments(collection, undefined, BATCH)) {
    const { endsAt, sessionHash } = parseSessionEndId(doc.id);
    if (endsAt > until) break;
    out.push({ id: doc.id, endsAt, sessionHash, userId: readAuthDocument<{ user_id: string }>(ENDED_SESSIONS, doc.body).user_id });
  }
  return out;
}

/**
 * The user's stream when it holds password sign-in traces only (`auth_password_login_succeeded`,
 * written there before they moved to the session's stream): removed. A stream that begins with
 * anything else (an account made by a provider sign-in lives there) is kept.
 */
function removeOldSignInTraces(platform: Platform, userId: string): void {
  const stream = authStreams.user(userId);
  const first = platform.events.readStream(stream, { direction: 'forward', limit: 1 })[0];
  if (first?.eventType === 'auth_password_login_succeeded') platform.events.removeStream(stream, { tag: 'any' });
}

/** One batch: at most BATCH newly ended sessions and BATCH removable ones. False when it lost a race. */
function batch(deps: AuthDeps, checkpoint: bigint, now: number, totals: RetentionPass): { committed: boolean; done: boolean } {
  const { platform } = deps;
  const removeUntil = now - deps.config.sessionRetentionSeconds * 1000;
  const ended = entries(platform, AUTH_COLLECTIONS.sessionEnds, now);
  const removable = entries(platform, ENDED_SESSIONS, removeUntil);
  const changes: DocumentChange[] = [];
  const byUser = new Map<string, Set<string>>();
  const removedFor = new Set<string>();
  let removed = 0;
  const remove = (entry: Entry) => {
    platform.events.removeStream(authStreams.session(entry.sessionHash), { tag: 'any' });
    platform.keyValue.delete(authNamespaces.sessionActivity, entry.sessionHash);
    removedFor.add(entry.userId);
    removed += 1;
  };
  for (const entry of ended) {
    changes.push({ tag: 'delete', val: { collection: AUTH_COLLECTIONS.sessionEnds, id: entry.id } });
    if (entry.endsAt <= removeUntil) remove(entry);
    else changes.push({ tag: 'put', val: { collection: ENDED_SESSIONS, id: entry.id, body: writeAuthDocument(ENDED_SESSIONS, { user_id: entry.userId }) } });
    const hashes = byUser.get(entry.userId) ?? new Set<string>();
    hashes.add(entry.sessionHash);
    byUser.set(entry.userId, hashes);
  }
  for (const entry of removable) {
    remove(entry);
    changes.push({ tag: 'delete', val: { collection: ENDED_SESSIONS, id: entry.id } });
  }
  for (const userId of removedFor) removeOldSignInTraces(platform, userId);
  for (const [userId, hashes] of byUser) {
    const doc = platform.projections.getDocument({ collection: AUTH_COLLECTIONS.userSessions, id: userId });
    if (!doc) continue;
    const { sessions } = readAuthDocument<UserSessionsDocument>(AUTH_COLLECTIONS.userSessions, doc.body);
    const live = sessions.filter((s) => !hashes.has(s.session_hash));
    if (live.length === sessions.length) continue;
    changes.push(
      live.length === 0
        ? { tag: 'delete', val: { collection: AUTH_COLLECTIONS.userSessions, id: userId } }
        : {
            tag: 'put',
            val: {
              collection: AUTH_COLLECTIONS.userSessions,
              id: userId,
              body: writeAuthDocument(AUTH_COLLECTIONS.userSessions, { sessions: live } satisfies UserSessionsDocument),
            },
          },
    );
  }
  const done = ended.length < BATCH && removable.length < BATCH;
  if (changes.length === 0) return { committed: true, done };
  if (!platform.projections.commit(AUTH_PROJECTION, checkpoint, checkpoint, changes)) return { committed: false, done: false };
  totals.ended += ended.length;
  totals.removed += removed;
  return { committed: true, done };
}

/** One retention pass (see above). Store failures propagate. */
export function runSessionRetention(deps: AuthDeps): RetentionPass {
  const totals: RetentionPass = { ended: 0, removed: 0, more: false };
  const now = deps.platform.now();
  for (let round = 0; round < MAX_BATCHES; round++) {
    const { checkpoint } = runAuthProjection(deps.platform);
    const { committed, done } = batch(deps, checkpoint, now, totals);
    if (committed && done) return totals;
  }
  return { ...totals, more: true };
}
