/**
 * The administrator's own record: every action of the administration API that changes something
 * is an auth event naming the administrator's subject (the `sub` of their token), so storage
 * status counts them and the store keeps who did what. Disabling and enabling are recorded in the
 * account's access stream (the state itself, application/account-access.ts); the other actions in
 * `auth-admin-<sha256(subject)>`, which outlives an erased account (it keeps the account's random
 * id, nothing else of it).
 */
import { AppError } from '../../errors.ts';
import type { AdminAccountDeleted, AdminResetLinkSent, AdminSessionsRevoked, AuthEventType } from '../domain/events.ts';
import type { AuthDeps } from '../application/deps.ts';
import { authEvent } from '../application/event-codec.ts';
import { sha256Hex } from '../application/secrets.ts';
import { authStreams } from '../application/streams.ts';

type AuditRecord =
  | { type: 'auth_admin_sessions_revoked'; data: AdminSessionsRevoked }
  | { type: 'auth_admin_reset_link_sent'; data: AdminResetLinkSent }
  | { type: 'auth_admin_account_deleted'; data: AdminAccountDeleted };

/** Appends the record to the administrator's stream; store failures become AppErrors. */
export async function recordAdminAction(deps: AuthDeps, record: AuditRecord): Promise<void> {
  const stream = authStreams.admin(await sha256Hex(record.data.by));
  try {
    deps.platform.events.append(stream, { tag: 'any' }, [authEvent(record.type satisfies AuthEventType, record.data)]);
  } catch (error) {
    throw AppError.fromStore(error);
  }
}
