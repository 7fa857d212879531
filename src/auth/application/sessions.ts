/**
 * Sessions: issue (a new stream `auth-session-<sha256(id)>` created with no-stream), look up
 * (fold the stream: issued, maybe revoked; expiry checked against the clock) and revoke.
 * The id itself exists only in the cookie; the store holds its hash.
 */
import type { AssuranceLevel, SessionIssued, SessionRevoked } from '../domain/events.ts';
import { evolveSession, isSessionActive, type SessionEvent, type SessionState } from '../domain/session.ts';
import type { AuthDeps } from './deps.ts';
import { authEvent, payloadOf } from './event-codec.ts';
import { runAuthProjectionQuietly } from './projection.ts';
import { authStoreFailure, isConflict } from './store-failure.ts';
import { randomToken, sha256Hex } from './secrets.ts';
import { sessionCookie } from './session-cookie.ts';
import { authStreams } from './streams.ts';

export interface IssueSessionInput {
  userId: string;
  email: string | null;
  aal: AssuranceLevel;
  /** `password` or `oauth:<provider>` */
  method: string;
}

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
}

/** Issues a session (`auth_session_issued`) and returns its cookie. Used by password login and OAuth callbacks. */
export async function issueSession(deps: AuthDeps, input: IssueSessionInput): Promise<IssuedSession> {
  const { platform, config } = deps;
  const sessionId = randomToken(32);
  const issuedAt = platform.now();
  const expiresAt = issuedAt + config.sessionTtlSeconds * 1000;
  const data: SessionIssued = { user_id: input.userId, email: input.email, aal: input.aal, method: input.method, issued_at: issuedAt, expires_at: expiresAt };
  try {
    platform.events.append(authStreams.session(await sha256Hex(sessionId)), { tag: 'no-stream' }, [authEvent('auth_session_issued', data)]);
  } catch (error) {
    throw authStoreFailure(error);
  }
  runAuthProjectionQuietly(platform);
  return { sessionId, expiresAt, setCookie: sessionCookie(sessionId, config.sessionTtlSeconds, config.cookieSecure) };
}

/** The active session for `sessionId`, or undefined when unknown, revoked or expired. */
export async function findActiveSession(deps: AuthDeps, sessionId: string | undefined): Promise<ActiveSession | undefined> {
  if (sessionId === undefined) return undefined;
  const sessionHash = await sha256Hex(sessionId);
  let state: SessionState | undefined;
  let revision = 0n;
  try {
    for (const event of deps.platform.events.readStream(authStreams.session(sessionHash), { direction: 'forward', limit: 16 })) {
      state = evolveSession(state, { type: event.eventType, data: payloadOf(event) } as SessionEvent);
      revision = event.revision;
    }
  } catch (error) {
    throw authStoreFailure(error);
  }
  return isSessionActive(state, deps.platform.now()) ? { ...state, sessionHash, revision } : undefined;
}

/** Revokes an active session (`auth_session_revoked`). A concurrent revoke counts as done. */
export function revokeSession(deps: AuthDeps, session: ActiveSession): void {
  const data: SessionRevoked = { user_id: session.userId, revoked_at: deps.platform.now() };
  try {
    deps.platform.events.append(authStreams.session(session.sessionHash), { tag: 'exact', val: session.revision }, [authEvent('auth_session_revoked', data)]);
  } catch (error) {
    if (isConflict(error)) return;
    throw authStoreFailure(error);
  }
  runAuthProjectionQuietly(deps.platform);
}
