/**
 * Stream names of the auth service. Secrets and personal data never appear in a name: emails,
 * session ids and external subjects are SHA-256 hashed first.
 */
export const authStreams = {
  user: (userId: string) => `auth-user-${userId}`,
  email: (emailHash: string) => `auth-email-${emailHash}`,
  session: (sessionHash: string) => `auth-session-${sessionHash}`,
  identity: (provider: string, subjectHash: string) => `auth-identity-${provider}-${subjectHash}`,
  /** the user's address record: where their address claim is since they first changed it (email-address.ts) */
  address: (userId: string) => `auth-address-${userId}`,
} as const;

/** Key-value namespaces (rate limiting, the device cookie's key, pending OAuth states, provider_c's signed client secret, mailed links, pending address changes). */
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
  emailChanges: 'auth-email-change',
} as const;
