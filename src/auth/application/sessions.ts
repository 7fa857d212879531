/**
 * Sessions: issue (a new stream `auth-session-<sha256(id)>` created with no-stream), look up
 * (fold the stream: issued, maybe revoked; expiry checked against the clock) and revoke.
 * The id itself exists only in the cookie; the store holds its hash. A session shows the account's
 * address as it is now: after an address change, the user's address record's (email-address.ts).
 *
 * What a sign-in records of itself (`auth_password_login_succeeded`) goes into the stream of the
 * session it opened, in the same append: retention (retention.ts) removes it with the session, so
 * sign-in traces are kept as long as the sessions they opened (AUTH_SESSION_RETENTION_SECONDS after
 * their end), never for the account's lifetime; the per-type totals stay exact.
 *
 * Two timeouts (OWASP Session Management Cheat Sheet, "Session Expiration"): the absolute one in
 * the issue event (AUTH_SESSION_TTL_SECONDS) and an idle one (AUTH_SESSION_IDLE_SECONDS) kept in
 * key-value as the session's last-seen time with the idle timeout as TTL. Last seen is written
 * coarsely, at most once per SEEN_RESOLUTION_MS, so a busy session does not write per request.
 *
 * No session is issued to a disabled account, whatever the sign-in method (account-access.ts).
 *
 * A user keeps at most MAX_SESSIONS_PER_USER sessions: a sign-in beyond it ends the oldest ones
 * (OWASP Session Management Cheat Sheet, "Simultaneous Session Logons"). Without the bound a user
 * who signs in again and again (a script, a client that never reuses its cookie) grew the user's
 * session list, which every sign-in rewrites, for the whole absolute timeout: sign-ins got slower
 * and the list bigger with each one (docs/memory.md).
 */
import type { NewEvent } from '../../platform/ports.ts';
import type { AssuranceLevel, SessionIssued, SessionRevoked } from '../domain/events.ts';
import { evolveSession, isSessionActive, type SessionEvent, type SessionState } from '../domain/session.ts';
import type { AuthDeps } from './deps.ts';
import { readAddressRecord } from './email-address.ts';
import { authEvent, payloadOf } from './event-codec.ts';
import { projectAfterResponse, userSessionEntries, type UserSessionsDocument } from './projection.ts';
import { accountAccess, assertAccountEnabled } from './account-access.ts';
import { AppError, isStoreConflict } from '../../errors.ts';
import { randomToken, sha256Hex } from './secrets.ts';
import { sessionCookie } from './session-cookie.ts';
import { authNamespaces, authStreams } from './streams.ts';

export interface IssueSessionInput {
  userId: string;
  email: string | null;
  aal: AssuranceLevel;
  /** `password`, `oauth:<provider>` or `passkey` */
  method: string;
  /** RFC 8176 §2 method values, when the caller knows them (a passkey sign-in). */
  amr?: string[];
  /** Short device hint (domain/device-hint.ts); 'Unknown device' when absent. */
  device?: string;
  /** The sign-in's own events, stored after the issue event in the session's stream (see above). */
  trace?: NewEvent[];
}

/** Last seen is refreshed at most this often (and the idle timeout is counted from it). */
const SEEN_RESOLUTION_MS = 60_000;

/** Most sessions one user keeps; a sign-in beyond it ends the oldest. */
export const MAX_SESSIONS_PER_USER = 50;

export interface IssuedSession {
  /** The secret cookie value: give it to the browser only, never log it. */
  sessionId: string;
  expiresAt: number;
  /** Ready `Set-Cookie` header value. */
  setCookie: string;
}

export interface ActiveSession extends SessionState {
  sessionHash: string;
  revision: bigint;
  /** epoch ms, to SEEN_RESOLUTION_MS */
  lastSeenAt: number;
}

function markSeen(deps: AuthDeps, sessionHash: string, at: number): void {
  deps.platform.keyValue.set(authNamespaces.sessionActivity, sessionHash, String(at), BigInt(deps.config.sessionIdleSeconds * 1000));
}

/** Issues a session (`auth_session_issued`) and returns its cookie. Used by password login and OAuth callbacks. */
export async function issueSession(deps: AuthDeps, input: IssueSessionInput): Promise<IssuedSession> {
  const { platform, config } = deps;
  const sessionId = randomToken(32);
  const issuedAt = platform.now();
  const expiresAt = issuedAt + config.sessionTtlSeconds * 1000;
  const data: SessionIssued = {
    user_id: input.userId,
    email: input.email,
    aal: input.aal,
    method: input.method,
    issued_at: issuedAt,
    expires_at: expiresAt,
    handle: randomToken(16),
    device: input.device ?? 'Unknown device',
    ...(input.amr ? { amr: input.amr } : {}),
  };
  const sessionHash = await sha256Hex(sessionId);
  assertAccountEnabled(deps, input.userId);
  try {
    platform.events.append(authStreams.session(sessionHash), { tag: 'no-stream' }, [authEvent('auth_session_issued', data), ...(input.trace ?? [])]);
    markSeen(deps, sessionHash, issuedAt);
  } catch (error) {
    throw AppError.fromStore(error);
  }
  // A disable that committed since the check above may have read the user's sessions before this
  // one was among them: then this session ends here (account-access.ts).
  if (accountAccess(deps, input.userId).disabled) {
    endSession(deps, input.userId, sessionHash);
    throw new AppError('account_disabled');
  }
  projectAfterResponse(platform);
  // After the projection task (tasks run in order): the list it reads is then up to date.
  platform.afterResponse(`auth_session_limit:${input.userId}`, () => endSessionsBeyondLimit(deps, input.userId));
  return { sessionId, expiresAt, setCookie: sessionCookie(sessionId, config.sessionTtlSeconds, config.cookieSecure) };
}

/**
 * Ends the user's oldest sessions beyond MAX_SESSIONS_PER_USER, as listed by the user's session
 * list (brought up to date by the projection run queued before it). Runs after the sign-in's
 * response: the new session is valid at once, the oldest end a moment later. An entry may be a session that has
 * already ended by idling; it is ended for good too, which is what takes it off the list.
 */
function endSessionsBeyondLimit(deps: AuthDeps, userId: string): void {
  let entries: UserSessionsDocument['sessions'];
  try {
    entries = userSessionEntries(deps.platform, userId);
  } catch (error) {
    throw AppError.fromStore(error);
  }
  if (entries.length <= MAX_SESSIONS_PER_USER) return;
  const oldest = [...entries].sort((a, b) => a.issued_at - b.issued_at).slice(0, entries.length - MAX_SESSIONS_PER_USER);
  for (const entry of oldest) endSession(deps, userId, entry.session_hash);
}

/** Appends `auth_session_revoked` to a session that is not revoked yet, active or not. */
function endSession(deps: AuthDeps, userId: string, sessionHash: string): void {
  let stored: StoredSession;
  try {
    stored = readSession(deps, sessionHash);
  } catch (error) {
    throw AppError.fromStore(error);
  }
  const { state, revision } = stored;
  if (state === undefined || state.revoked || state.userId !== userId) return;
  revokeSession(deps, { ...state, sessionHash, revision, lastSeenAt: 0 });
}

interface StoredSession {
  state: SessionState | undefined;
  revision: bigint;
}

/** The session stream folded: its state (undefined: no such session) and revision. Store failures propagate. */
function readSession(deps: AuthDeps, sessionHash: string): StoredSession {
  let state: SessionState | undefined;
  let revision = 0n;
  for (const event of deps.platform.events.readStream(authStreams.session(sessionHash), { direction: 'forward', limit: 16 })) {
    state = evolveSession(state, { type: event.eventType, data: payloadOf(event) } as SessionEvent);
    revision = event.revision;
  }
  return { state, revision };
}

/**
 * The active session for `sessionId`, or undefined when unknown, revoked, expired or idle past
 * AUTH_SESSION_IDLE_SECONDS. Counts as activity (last seen, coarsely).
 */
export async function findActiveSession(deps: AuthDeps, sessionId: string | undefined): Promise<ActiveSession | undefined> {
  if (sessionId === undefined) return undefined;
  const session = findActiveSessionByHash(deps, await sha256Hex(sessionId));
  if (session && deps.platform.now() - session.lastSeenAt >= SEEN_RESOLUTION_MS) {
    try {
      markSeen(deps, session.sessionHash, deps.platform.now());
    } catch (error) {
      throw AppError.fromStore(error);
    }
  }
  return session;
}

/** The active session stored under `sessionHash` (see findActiveSession), without marking it seen. */
export function findActiveSessionByHash(deps: AuthDeps, sessionHash: string): ActiveSession | undefined {
  try {
    const { state, revision } = readSession(deps, sessionHash);
    if (!isSessionActive(state, deps.platform.now())) return undefined;
    // A session from before public handles is on no session list, so a disable could not end it:
    // it asks the account's state itself (one read, for these old sessions only).
    if (state.handle === '' && accountAccess(deps, state.userId).disabled) return undefined;
    // No last-seen entry: idle past the timeout (the entry's TTL), so the session has ended.
    const seen = deps.platform.keyValue.get(authNamespaces.sessionActivity, sessionHash);
    if (seen === undefined) return undefined;
    const lastSeenAt = Number(seen);
    if (deps.platform.now() - lastSeenAt >= deps.config.sessionIdleSeconds * 1000) return undefined;
    // The address the session was issued with may have changed since: the user's record says (email-address.ts).
    const moved = readAddressRecord(deps.platform, state.userId).current;
    return { ...state, ...(moved ? { email: moved.email } : {}), sessionHash, revision, lastSeenAt };
  } catch (error) {
    throw AppError.fromStore(error);
  }
}

/** Revokes an active session (`auth_session_revoked`). A concurrent revoke counts as done. */
export function revokeSession(deps: AuthDeps, session: ActiveSession): void {
  const data: SessionRevoked = { user_id: session.userId, revoked_at: deps.platform.now() };
  try {
    deps.platform.events.append(authStreams.session(session.sessionHash), { tag: 'exact', val: session.revision }, [authEvent('auth_session_revoked', data)]);
  } catch (error) {
    if (isStoreConflict(error)) return;
    throw AppError.fromStore(error);
  }
  try {
    deps.platform.keyValue.delete(authNamespaces.sessionActivity, session.sessionHash);
  } catch (error) {
    throw AppError.fromStore(error);
  }
  projectAfterResponse(deps.platform);
}
