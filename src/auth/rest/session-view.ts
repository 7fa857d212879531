/** The public view of a session: who and until when, never the id or its hash. */
import type { ActiveSession } from '../application/index.ts';

export type SessionView =
  | { authenticated: false }
  | { authenticated: true; user_id: string; email: string | null; aal: string; amr: string[]; method: string; issued_at: string; expires_at: string };

export function sessionView(session: ActiveSession | undefined): SessionView {
  if (!session) return { authenticated: false };
  return {
    authenticated: true,
    user_id: session.userId,
    email: session.email,
    aal: session.aal,
    amr: session.amr,
    method: session.method,
    issued_at: new Date(session.issuedAt).toISOString(),
    expires_at: new Date(session.expiresAt).toISOString(),
  };
}
