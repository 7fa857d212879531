/**
 * The auth service's configuration: the AUTH_* variables of the component's environment,
 * validated with valibot. A problem is an AppError 'configuration' naming the variables, never
 * their values. The OAuth variables are read by src/auth/oauth/ (its own schema).
 */
import { APP_NAME_VARIABLE } from '../contract/app-variables.ts';
import * as v from 'valibot';
import { AppError } from '../errors.ts';
import { clientAddressTrusted } from '../http/client-address.ts';
import type { VerificationKey } from './oauth/jwt/jwks.ts';
import { cookieSecurity } from './secure-cookies.ts';
import { parseSystemTokenKeys } from './system-token-keys.ts';

const seconds = (fallback: string, max: number) => v.pipe(v.optional(v.string(), fallback), v.regex(/^\d+$/), v.transform(Number), v.integer(), v.minValue(1), v.maxValue(max));

const count = (fallback: string, max: number) => v.pipe(v.optional(v.string(), fallback), v.regex(/^\d+$/), v.transform(Number), v.integer(), v.minValue(1), v.maxValue(max));

const DAY = 86_400;
/** AUTH_PASSWORD_MIN_LENGTH when unset; exported for the OpenAPI document's register schema. */
export const DEFAULT_PASSWORD_MIN_LENGTH = 12;

const schema = v.object({
  AUTH_PUBLIC_BASE_URL: v.optional(v.pipe(v.string(), v.url(), v.regex(/^https?:\/\/[^/?#]+\/?$/))),
  // Unset: Secure exactly when AUTH_PUBLIC_BASE_URL is https (../secure-cookies.ts).
  AUTH_COOKIE_SECURE: v.optional(v.picklist(['true', 'false'])),
  AUTH_SESSION_TTL_SECONDS: seconds('43200', 30 * DAY),
  AUTH_PASSWORD_MIN_LENGTH: v.pipe(v.optional(v.string(), String(DEFAULT_PASSWORD_MIN_LENGTH)), v.regex(/^\d+$/), v.transform(Number), v.integer(), v.minValue(8), v.maxValue(128)),
  AUTH_LOGIN_MAX_FAILURES: v.pipe(v.optional(v.string(), '5'), v.regex(/^\d+$/), v.transform(Number), v.integer(), v.minValue(1), v.maxValue(1000)),
  AUTH_LOGIN_LOCKOUT_SECONDS: seconds('900', DAY),
  AUTH_SESSION_IDLE_SECONDS: seconds('1800', 30 * DAY),
  // 0 = an ended session's stream goes at the next maintenance pass.
  AUTH_SESSION_RETENTION_SECONDS: v.pipe(v.optional(v.string(), String(30 * DAY)), v.regex(/^\d+$/), v.transform(Number), v.integer(), v.minValue(0), v.maxValue(3650 * DAY)),
  MAIL_DEAD_LETTER_RETENTION_SECONDS: v.pipe(v.optional(v.string(), String(30 * DAY)), v.regex(/^\d+$/), v.transform(Number), v.integer(), v.minValue(0), v.maxValue(3650 * DAY)),
  AUTH_CLIENT_MAX_ATTEMPTS_PER_MINUTE: count('100', 100_000),
  AUTH_GLOBAL_MAX_SIGNUPS_PER_MINUTE: count('1000', 1_000_000),
  // Link mail per hour (application/mail-budget.ts).
  AUTH_MAIL_MAX_PER_MAILBOX_PER_HOUR: count('6', 1000),
  AUTH_MAIL_MAX_PER_DOMAIN_PER_HOUR: count('500', 1_000_000),
  AUTH_MAIL_MAX_PER_CLIENT_PER_HOUR: count('100', 100_000),
  // ES256 public key(s) of the operator token issuer (./system-token-keys.ts); checked below.
  AUTH_SYSTEM_TOKEN_JWKS: v.optional(v.string()),
  // The former HS256 secret: refused below with what to do instead.
  AUTH_SYSTEM_TOKEN_SECRET: v.optional(v.string()),
  AUTH_SYSTEM_TOKEN_ISSUER: v.optional(v.pipe(v.string(), v.minLength(1)), 'wasi-counter-auth'),
  AUTH_SYSTEM_TOKEN_AUDIENCE: v.optional(v.pipe(v.string(), v.minLength(1)), 'wasi-counter-auth:storage-status'),
  // The service's name in its mails (and their sender's name): plain text on one line.
  APP_NAME: v.optional(
    v.pipe(
      v.string(),
      v.minLength(1),
      v.maxLength(60),
      v.check((text) => ![...text].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f || ch === '<' || ch === '>' || ch === '"')),
    ),
    'Counter',
  ),
  // `Name <address>` or `address`: one line (a line break would inject mail headers), printable.
  AUTH_EMAIL_FROM: v.optional(
    v.pipe(
      v.string(),
      v.maxLength(200),
      v.check((text) => ![...text].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f)),
      v.regex(/^(?:[^<>]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/),
    ),
  ),
});

export interface AuthConfig {
  /** Origin of the public base URL (allowed in Origin checks besides the request's own origin). */
  publicOrigin: string | undefined;
  /** Whether the host's `x-app-client-address` names the client (src/http/client-address.ts). */
  clientAddressTrusted: boolean;
  cookieSecure: boolean;
  sessionTtlSeconds: number;
  passwordMinLength: number;
  loginMaxFailures: number;
  loginLockoutSeconds: number;
  /** A session unused for this long ends, whatever its absolute expiry (OWASP Session Management). */
  sessionIdleSeconds: number;
  /** How long an ended session's events are kept before maintenance removes its stream. */
  sessionRetentionSeconds: number;
  /** How long a message set aside after failed deliveries is kept (it holds the recipient's address). */
  mailDeadLetterRetentionSeconds: number;
  /** Login, registration and OAuth start attempts one client address may make per minute. */
  clientMaxAttemptsPerMinute: number;
  /** Registrations and OAuth starts (the calls that write records) per minute, all clients together. */
  globalMaxSignupsPerMinute: number;
  /** Link mails per hour to one mailbox, `+tag` and case folded (application/mail-budget.ts). */
  mailMaxPerMailboxPerHour: number;
  /** Link mails per hour to one mail domain. */
  mailMaxPerDomainPerHour: number;
  /** Link mails per hour that one client address's requests may cause. */
  mailMaxPerClientPerHour: number;
  /**
   * Mail (verification and password-reset links): on when AUTH_PUBLIC_BASE_URL is set, since links
   * are built from it, never from a request's Host. `baseUrl` has no trailing slash.
   */
  mail: { baseUrl: string; from: string; appName: string } | undefined;
  /** Absent: the storage-status endpoint rejects every token (401). */
  systemToken: { keys: VerificationKey[]; issuer: string; audience: string } | undefined;
}

/** The variables this schema reads: the AUTH_* ones and the one mail setting the component applies itself. */
const readsVariable = (key: string) => key.startsWith('AUTH_') || key === 'MAIL_DEAD_LETTER_RETENTION_SECONDS' || key === APP_NAME_VARIABLE;

/**
 * Why AUTH_PUBLIC_BASE_URL is not an origin, in words that hold no part of the value: the service
 * is served from the root of its host (cookies, the passkeys' origin, the OAuth redirect URIs).
 */
function publicBaseProblem(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    // (The component's engine has no URL.canParse.) Not a URL at all: the schema says so.
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.pathname !== '/') return 'a path is not allowed: give scheme://host[:port] only, the service is served from the root of its host';
  if (url.search !== '' || url.hash !== '' || raw.includes('?') || raw.includes('#')) return 'a query or fragment is not allowed: give scheme://host[:port] only';
  return undefined;
}

export function parseAuthConfig(env: ReadonlyMap<string, string>): AuthConfig {
  // An empty value (`AUTH_X=` copied from .env.example) means unset.
  const input = Object.fromEntries([...env].filter(([key, value]) => readsVariable(key) && value !== ''));
  const result = v.safeParse(schema, input);
  if (!result.success) {
    const baseProblem = publicBaseProblem(input['AUTH_PUBLIC_BASE_URL']);
    const names = [...new Set(result.issues.map((issue) => v.getDotPath(issue) ?? 'AUTH_*'))]
      .sort()
      .map((name) => (name === 'AUTH_PUBLIC_BASE_URL' && baseProblem ? `${name} (${baseProblem})` : name))
      .join(', ');
    throw new AppError('configuration', `invalid configuration: ${names}`);
  }
  const c = result.output;
  const cookies = cookieSecurity(c.AUTH_COOKIE_SECURE === undefined ? undefined : c.AUTH_COOKIE_SECURE === 'true', c.AUTH_PUBLIC_BASE_URL);
  if ('conflict' in cookies) throw new AppError('configuration', 'invalid configuration: AUTH_COOKIE_SECURE (must not be false when AUTH_PUBLIC_BASE_URL is https)');
  if (c.AUTH_SYSTEM_TOKEN_SECRET !== undefined) {
    throw new AppError(
      'configuration',
      'invalid configuration: AUTH_SYSTEM_TOKEN_SECRET is no longer accepted (operator tokens are ES256-signed now); remove it and set AUTH_SYSTEM_TOKEN_JWKS to the public key of your token issuer (locally: npm run -s auth:token -- --print-jwks)',
    );
  }
  const systemTokenKeys = c.AUTH_SYSTEM_TOKEN_JWKS === undefined ? undefined : parseSystemTokenKeys(c.AUTH_SYSTEM_TOKEN_JWKS);
  if (systemTokenKeys && 'problem' in systemTokenKeys) throw new AppError('configuration', `invalid configuration: AUTH_SYSTEM_TOKEN_JWKS (${systemTokenKeys.problem})`);
  const base = c.AUTH_PUBLIC_BASE_URL === undefined ? undefined : new URL(c.AUTH_PUBLIC_BASE_URL);
  return {
    mail: base && { baseUrl: base.origin, from: c.AUTH_EMAIL_FROM ?? `${c.APP_NAME} <no-reply@${base.hostname.replace(/^\[|\]$/g, '')}>`, appName: c.APP_NAME },
    publicOrigin: c.AUTH_PUBLIC_BASE_URL === undefined ? undefined : new URL(c.AUTH_PUBLIC_BASE_URL).origin,
    clientAddressTrusted: clientAddressTrusted(env),
    cookieSecure: cookies.secure,
    sessionTtlSeconds: c.AUTH_SESSION_TTL_SECONDS,
    passwordMinLength: c.AUTH_PASSWORD_MIN_LENGTH,
    loginMaxFailures: c.AUTH_LOGIN_MAX_FAILURES,
    loginLockoutSeconds: c.AUTH_LOGIN_LOCKOUT_SECONDS,
    sessionIdleSeconds: c.AUTH_SESSION_IDLE_SECONDS,
    sessionRetentionSeconds: c.AUTH_SESSION_RETENTION_SECONDS,
    mailDeadLetterRetentionSeconds: c.MAIL_DEAD_LETTER_RETENTION_SECONDS,
    clientMaxAttemptsPerMinute: c.AUTH_CLIENT_MAX_ATTEMPTS_PER_MINUTE,
    globalMaxSignupsPerMinute: c.AUTH_GLOBAL_MAX_SIGNUPS_PER_MINUTE,
    mailMaxPerMailboxPerHour: c.AUTH_MAIL_MAX_PER_MAILBOX_PER_HOUR,
    mailMaxPerDomainPerHour: c.AUTH_MAIL_MAX_PER_DOMAIN_PER_HOUR,
    mailMaxPerClientPerHour: c.AUTH_MAIL_MAX_PER_CLIENT_PER_HOUR,
    systemToken: systemTokenKeys === undefined ? undefined : { keys: systemTokenKeys.keys, issuer: c.AUTH_SYSTEM_TOKEN_ISSUER, audience: c.AUTH_SYSTEM_TOKEN_AUDIENCE },
  };
}
