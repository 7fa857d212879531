/**
 * Stream names of the auth service. Secrets and personal data never appear in a name: emails,
 * session ids and external subjects are SHA-256 hashed first.
 */
export const authStreams = {
  user: (userId: string) => `auth-user-${userId}`,
  email: (emailHash: string) => `auth-email-${emailHash}`,
  session: (sessionHash: string) => `auth-session-${sessionHash}`,
  identity: (provider: string, subjectHash: string) => `auth-identity-${provider}-${subjectHash}`,
  oauthState: (stateHash: string) => `auth-oauth-state-${stateHash}`,
} as const;

/** Key-value namespaces (rate limiting, OAuth state secrets, provider_c's signed client secret). */
export const authNamespaces = {
  loginFailures: 'auth-login-failures',
  loginLock: 'auth-login-lock',
  throttle: 'auth-throttle',
  sessionActivity: 'auth-session-activity',
  oauthClientSecrets: 'auth-oauth-client-secret',
} as const;
