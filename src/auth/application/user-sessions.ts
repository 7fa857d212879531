/**
 * A user's own sessions: list them, revoke one by its public handle, revoke all of them, and
 * end the session a browser held before it signs in again (session fixation, OWASP Session
 * Management Cheat Sheet "Renew the Session ID After Any Privilege Level Change"). The list comes
 * from the `auth_user_sessions` read model; every entry is re-checked against its stream and its
 * last-seen entry, so a revoked, expired or idle session never shows. Session ids and their hashes
 * never leave this module: callers see the random handle only.
 */
import { AppError } from '../../errors.ts';
import type { AuthDeps } from './deps.ts';
import { runAuthProjectionQuietly, userSessionEntries, type UserSessionsDocument } from './projection.ts';
import { findActiveSession, findActiveSessionByHash, revokeSession, type ActiveSession } from './sessions.ts';

export interface SessionSummary {
  /** the public handle (not the session id) */
  id: string;
  device: string;
  method: string;
  issuedAt: number;
  lastSeenAt: number;
  expiresAt: number;
  /** true for the session making the request */
  current: boolean;
}

function activeSessionsOf(deps: AuthDeps, userId: string): ActiveSession[] {
  runAuthProjectionQuietly(deps.platform);
  let entries: UserSessionsDocument['sessions'];
  try {
    entries = userSessionEntries(deps.platform, userId);
  } catch (error) {
    throw AppError.fromStore(error);
  }
  return entries.map((entry) => findActiveSessionByHash(deps, entry.session_hash)).filter((s): s is ActiveSession => s !== undefined && s.userId === userId);
}

/** The signed-in user's active sessions, newest first. */
export function listSessions(deps: AuthDeps, current: ActiveSession): SessionSummary[] {
  return listUserSessions(deps, current.userId, current.sessionHash);
}

/** The active sessions of the user `userId`, newest first (`current` marks the one with that hash). */
export function listUserSessions(deps: AuthDeps, userId: string, currentHash?: string): SessionSummary[] {
  return activeSessionsOf(deps, userId)
    .map((s) => ({
      id: s.handle,
      device: s.device,
      method: s.method,
      issuedAt: s.issuedAt,
      lastSeenAt: s.lastSeenAt,
      expiresAt: s.expiresAt,
      current: s.sessionHash === currentHash,
    }))
    .sort((a, b) => b.issuedAt - a.issuedAt);
}

/** Revokes the user's session with this handle; 404 `not_found` when there is none (or not theirs). */
export function revokeSessionByHandle(deps: AuthDeps, current: ActiveSession, handle: string): ActiveSession {
  return revokeUserSessionByHandle(deps, current.userId, handle);
}

/** Revokes the session with this handle of the user `userId`; 404 `not_found` when they have none such. */
export function revokeUserSessionByHandle(deps: AuthDeps, userId: string, handle: string): ActiveSession {
  const target = activeSessionsOf(deps, userId).find((s) => s.handle !== '' && s.handle === handle);
  if (!target) throw new AppError('not_found', 'no such session');
  revokeSession(deps, target);
  return target;
}

/** Revokes every active session of the user, the current one included; returns how many. */
export function revokeAllSessions(deps: AuthDeps, current: ActiveSession): number {
  const sessions = activeSessionsOf(deps, current.userId);
  if (!sessions.some((s) => s.sessionHash === current.sessionHash)) sessions.push(current);
  for (const session of sessions) revokeSession(deps, session);
  return sessions.length;
}

/** Revokes every active session of the user but `keep` (a session hash), if given; returns how many. */
export function revokeUserSessions(deps: AuthDeps, userId: string, keep?: string): number {
  const sessions = activeSessionsOf(deps, userId).filter((s) => s.sessionHash !== keep);
  for (const session of sessions) revokeSession(deps, session);
  return sessions.length;
}

/** At sign-in: the session the browser held before (if any) ends, whoever it belonged to. */
export async function revokePreviousSession(deps: AuthDeps, previousSessionId: string | undefined): Promise<void> {
  const previous = await findActiveSession(deps, previousSessionId);
  if (previous) revokeSession(deps, previous);
}
