/**
 * A session's state, folded from its stream (`auth_session_issued`, then maybe
 * `auth_session_revoked`). Pure: the caller passes the clock.
 */
import type { AssuranceLevel, SessionIssued, SessionRevoked } from './events.ts';

export type SessionEvent = { type: 'auth_session_issued'; data: SessionIssued } | { type: 'auth_session_revoked'; data: SessionRevoked };

export interface SessionState {
  userId: string;
  email: string | null;
  aal: AssuranceLevel;
  method: string;
  issuedAt: number;
  expiresAt: number;
  /** Public handle for the session list ('' for sessions issued before handles existed). */
  handle: string;
  device: string;
  revoked: boolean;
}

export function evolveSession(state: SessionState | undefined, event: SessionEvent): SessionState | undefined {
  switch (event.type) {
    case 'auth_session_issued':
      return {
        userId: event.data.user_id,
        email: event.data.email,
        aal: event.data.aal,
        method: event.data.method,
        issuedAt: event.data.issued_at,
        expiresAt: event.data.expires_at,
        handle: event.data.handle ?? '',
        device: event.data.device ?? 'Unknown device',
        revoked: false,
      };
    case 'auth_session_revoked':
      return state && { ...state, revoked: true };
  }
}

export function isSessionActive(state: SessionState | undefined, nowMs: number): state is SessionState {
  return state !== undefined && !state.revoked && nowMs < state.expiresAt;
}
