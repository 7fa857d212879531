/**
 * A session's state, folded from its stream (`auth_session_issued`, the sign-in's own trace such
 * as `auth_password_login_succeeded`, then maybe `auth_session_revoked`). Pure: the caller passes
 * the clock.
 */
import type { AssuranceLevel, PasswordLoginSucceeded, SessionIssued, SessionRevoked } from './events.ts';

export type SessionEvent =
  | { type: 'auth_session_issued'; data: SessionIssued }
  | { type: 'auth_password_login_succeeded'; data: PasswordLoginSucceeded }
  | { type: 'auth_session_revoked'; data: SessionRevoked };

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
  /** Authentication methods, RFC 8176 §2 values (`pwd`, `hwk`/`swk` + `mfa` for a verified passkey). */
  amr: string[];
  revoked: boolean;
}

/** What sessions issued before `amr` was recorded used: a password is `pwd`; a provider sign-in names no method of ours. */
function amrOfMethod(method: string): string[] {
  return method === 'password' ? ['pwd'] : [];
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
        amr: event.data.amr ?? amrOfMethod(event.data.method),
        revoked: false,
      };
    case 'auth_password_login_succeeded':
      // A record of how the session was opened: it changes nothing of the session's state.
      return state;
    case 'auth_session_revoked':
      return state && { ...state, revoked: true };
  }
}

export function isSessionActive(state: SessionState | undefined, nowMs: number): state is SessionState {
  return state !== undefined && !state.revoked && nowMs < state.expiresAt;
}
