/**
 * Stream names of the auth service. Secrets and personal data never appear in a name: emails,
 * session ids and external subjects are SHA-256 hashed first.
 */
export const authStreams = {
  user: (userId: string) => `auth-user-${userId}`,
  email: (emailHash: string) => `auth-email-${emailHash}`,
  session: (sessionHash: string) => `auth-session-${sessionHash}`,
  identity: (provider: string, subjectHash: string) => `auth-identity-${provider}-${subjectHash}`,
  /** an account's access state: disabled or enabled by an administrator (account-access.ts) */
  access: (userId: string) => `auth-access-${userId}`,
  /** one administrator's actions, by the SHA-256 of their subject (src/auth/admin/) */
  admin: (subjectHash: string) => `auth-admin-${subjectHash}`,
  /** the user's address record: where their address claim is since they first changed it (email-address.ts) */
  address: (userId: string) => `auth-address-${userId}`,
} as const;

/** Key-value namespaces (rate limiting, the device cookie's key, pending OAuth states, provider_c's signed client secret, mailed links, the one sign-in method change at a time per account, pending address changes). */
export const authNamespaces = {
  loginFailures: 'auth-login-failures',
  loginLock: 'auth-login-lock',
  throttle: 'auth-throttle',
  accountStarted: 'auth-account-started',
  accountReleased: 'auth-account-released',
  accountLast: 'auth-account-last',
  accountTurn: 'auth-account-turn',
  deviceKey: 'auth-device-key',
  sessionActivity: 'auth-session-activity',
  oauthClientSecrets: 'auth-oauth-client-secret',
  oauthStates: 'auth-oauth-state',
  oauthStatesUsed: 'auth-oauth-state-used',
  mailLinks: 'auth-mail-link',
  mailLinkNewest: 'auth-mail-link-newest',
  mailLinkSecrets: 'auth-mail-link-secret',
  mailLinkBudget: 'auth-mail-link-budget',
  methodChange: 'auth-method-change',
  emailChanges: 'auth-email-change',
} as const;
