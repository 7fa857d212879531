/** The auth application's public surface, for the adapters (REST, pages) and the OAuth flow. */
export type { AuthDeps, OfferedProvider } from './deps.ts';
export { registerWithPassword, UNKNOWN_CLIENT, type Credentials, type Registration, type SignedIn, type SignInContext } from './register.ts';
export { loginWithPassword } from './login.ts';
export { listSessions, revokeAllSessions, revokePreviousSession, revokeSessionByHandle, type SessionSummary } from './user-sessions.ts';
export { throttle } from './rate-limit.ts';
export {
  issueSession,
  findActiveSession,
  findActiveSessionByHash,
  MAX_SESSIONS_PER_USER,
  revokeSession,
  type ActiveSession,
  type IssuedSession,
  type IssueSessionInput,
} from './sessions.ts';
export { deviceCookieFromHeader, deviceCookieName, DEVICE_COOKIE_PATH } from './device-cookie.ts';
export { SESSION_COOKIE, sessionCookie, clearedSessionCookie, sessionIdFromCookieHeader } from './session-cookie.ts';
export { linkOrCreateUserForExternalIdentity, type ExternalIdentity, type LinkedAccount } from './external-identity.ts';
export { linkIdentityToAccount, verifiedAccountEmail, type LinkOutcome, type LinkRefusal } from './identity-linking.ts';
export { authorizeSystemAdmin, bearerToken, SYSTEM_ADMIN_ROLE } from './system-token.ts';
export { getStorageStatus, type StorageStatus } from './storage-status.ts';
export { runSessionRetention, type RetentionPass } from './retention.ts';
export { deleteAccount, REAUTH_WINDOW_MS, type DeletedAccount, type Reauthentication } from './account-deletion.ts';
export { AUTH_PROJECTION, AUTH_COLLECTIONS, runAuthProjection, runAuthProjectionQuietly } from './projection.ts';
export { authEvent, payloadOf } from './event-codec.ts';
export { randomToken, sha256Hex } from './secrets.ts';
export { authStreams, authNamespaces } from './streams.ts';
export { safeNextPath, DEFAULT_AFTER_SIGN_IN } from '../domain/safe-redirect.ts';
export { AUTH_EVENT_TYPES, type AuthEventType } from '../domain/events.ts';
export { accountFacts, resendVerification, verificationState, verifyEmail, type AccountFacts, type VerificationState } from './email-verification.ts';
export { changePassword, inspectResetLink, requestPasswordReset, resetPassword } from './password-reset.ts';
export { MailLinkTokenSchema } from './mail-links.ts';
export { removeSignInMethod, LAST_WAY_IN_MESSAGE, type RemovedMethod } from './sign-in-method-removal.ts';
export { signInMethodsView, type SignInMethodView, type SignInMethodsView } from './sign-in-methods-view.ts';
export {
  cancelEmailChange,
  confirmEmailChange,
  pendingEmailChange,
  requestEmailChange,
  undoEmailChange,
  type ChangedAddress,
  type PendingChange,
  type UndoneChange,
} from './email-change.ts';
