/**
 * The application's own variables: what the component reads from its environment, which every
 * host passes through to it by name (the Node host, host/guest/guest-env.ts; `wasmtime serve`,
 * scripts/wasmtime/serve-args.ts). The list is for the hosts' `--help`; docs/configuration.md
 * holds each rule in full, and test/docs/app-variables.unit.test.ts keeps this list equal to the
 * variables src/auth reads.
 */

/** Names passed to the guest as they are; the rest of a host's environment stays outside it. */
/** The service's name, which the component reads itself (mail texts, the sender's name). */
export const APP_NAME_VARIABLE = 'APP_NAME';

export const PASSED_TO_GUEST: readonly RegExp[] = [/^AUTH_/, /^COUNTER_WRITES$/, /^MAIL_DEAD_LETTER_RETENTION_SECONDS$/, /^APP_NAME$/];

export interface AppVariable {
  /** `AUTH_PROVIDER_{A,B,C}_…` stands for one variable per provider. */
  name: string;
  default: string;
  help: string;
}

export const APP_VARIABLES: readonly AppVariable[] = [
  {
    name: 'AUTH_PUBLIC_BASE_URL',
    default: 'unset',
    help: 'public scheme://host[:port] of the service, no path; turns mail on, and passkeys for a domain name (their RP ID)',
  },
  { name: 'APP_NAME', default: 'Counter', help: "the service's name in every mail and as its sender's name (plain text, 1-60 characters)" },
  { name: 'AUTH_EMAIL_FROM', default: 'APP_NAME <no-reply@host>', help: "the sender of the service's mail" },
  { name: 'AUTH_COOKIE_SECURE', default: 'https base', help: 'true: cookies get Secure and the __Host- prefix; false with an https base is refused' },
  { name: 'AUTH_SESSION_TTL_SECONDS', default: '43200', help: 'session lifetime (1-2592000)' },
  { name: 'AUTH_SESSION_IDLE_SECONDS', default: '1800', help: 'a session unused this long ends' },
  { name: 'AUTH_SESSION_RETENTION_SECONDS', default: '2592000', help: "how long an ended session's events are kept" },
  { name: 'AUTH_PASSWORD_MIN_LENGTH', default: '12', help: 'minimum password length in code points (8-128)' },
  { name: 'AUTH_LOGIN_MAX_FAILURES', default: '5', help: 'wrong passwords per (email, client) before that pair is locked' },
  { name: 'AUTH_LOGIN_LOCKOUT_SECONDS', default: '900', help: 'counting window and lock length' },
  { name: 'AUTH_CLIENT_MAX_ATTEMPTS_PER_MINUTE', default: '100', help: 'sign-in, registration and OAuth starts per client address a minute' },
  { name: 'AUTH_GLOBAL_MAX_SIGNUPS_PER_MINUTE', default: '1000', help: 'registrations and OAuth starts a minute, all clients' },
  { name: 'AUTH_MAIL_MAX_PER_MAILBOX_PER_HOUR', default: '6', help: 'link mails an hour to one mailbox (+tag and case folded)' },
  { name: 'AUTH_MAIL_MAX_PER_DOMAIN_PER_HOUR', default: '500', help: 'link mails an hour to one mail domain' },
  { name: 'AUTH_MAIL_MAX_PER_CLIENT_PER_HOUR', default: '100', help: "link mails an hour one client address's requests may cause" },
  { name: 'AUTH_SYSTEM_TOKEN_JWKS', default: 'unset', help: 'public ES256 key(s) of the operator-token issuer (unset: every token refused)' },
  { name: 'AUTH_SYSTEM_TOKEN_ISSUER', default: 'wasi-counter-auth', help: 'iss of operator tokens' },
  { name: 'AUTH_SYSTEM_TOKEN_AUDIENCE', default: 'wasi-counter-auth:storage-status', help: 'aud of operator tokens' },
  { name: 'AUTH_SYSTEM_TOKEN_SECRET', default: 'unset', help: 'the former HS256 secret: refused at start' },
  { name: 'COUNTER_WRITES', default: 'anyone', help: 'who may change the count: anyone, signed-in (a session) or aal2 (a passkey sign-in)' },
  { name: 'MAIL_DEAD_LETTER_RETENTION_SECONDS', default: '2592000', help: 'how long mail set aside after failed deliveries is kept' },
  { name: 'AUTH_ENABLE_OAUTH', default: 'false', help: 'OAuth sign-in on or off' },
  { name: 'AUTH_OAUTH_DEVELOPMENT_CALLBACK_BYPASS', default: 'false', help: 'local development only; refused on a secure deployment' },
  { name: 'AUTH_PROVIDER_{A,B,C}_ENABLED', default: 'false', help: 'offer the provider (with OAuth on; every credential below is then required)' },
  { name: 'AUTH_PROVIDER_{A,B,C}_LABEL', default: 'Provider A/B/C', help: 'the sign-in button says "Continue with <label>"' },
  { name: 'AUTH_PROVIDER_{A,B,C}_CLIENT_ID', default: 'unset', help: 'OAuth client id' },
  { name: 'AUTH_PROVIDER_{A,B}_CLIENT_SECRET', default: 'unset', help: 'client secret' },
  { name: 'AUTH_PROVIDER_{A,B,C}_REDIRECT_URI', default: 'unset', help: 'AUTH_PUBLIC_BASE_URL + /api/auth/oauth/<provider>/callback' },
  { name: 'AUTH_PROVIDER_{A,B,C}_SCOPES', default: 'per provider', help: 'space-separated scopes' },
  { name: 'AUTH_PROVIDER_{A,B,C}_AUTHORIZATION_URL', default: 'real endpoint', help: 'authorization endpoint' },
  { name: 'AUTH_PROVIDER_{A,B,C}_TOKEN_URL', default: 'real endpoint', help: 'token endpoint' },
  { name: 'AUTH_PROVIDER_{A,C}_JWKS_URL', default: 'real endpoint', help: "the ID token's keys" },
  { name: 'AUTH_PROVIDER_{A,C}_ISSUER', default: 'real issuer', help: "the ID token's issuer" },
  { name: 'AUTH_PROVIDER_B_USERINFO_URL', default: 'real endpoint', help: 'the profile endpoint' },
  { name: 'AUTH_PROVIDER_C_{TEAM_ID,KEY_ID,PRIVATE_KEY}', default: 'unset', help: "the key provider_c's client secret is signed with" },
  { name: 'AUTH_PROVIDER_C_GENERATED_CLIENT_SECRET', default: 'unset', help: 'a pre-generated client-secret JWT instead of the key' },
];

/** The concrete names one entry stands for (`AUTH_PROVIDER_{A,B}_X` → `AUTH_PROVIDER_A_X`, `AUTH_PROVIDER_B_X`). */
export function expandVariableName(name: string): string[] {
  const match = /^(.*)\{([^}]+)\}(.*)$/.exec(name);
  if (!match) return [name];
  const [, head = '', choices = '', tail = ''] = match;
  return choices.split(',').flatMap((choice) => expandVariableName(`${head}${choice}${tail}`));
}
