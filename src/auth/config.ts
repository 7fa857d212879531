/**
 * The auth service's configuration: the AUTH_* variables of the component's environment,
 * validated with valibot. A problem is an AppError 'configuration' naming the variables, never
 * their values. The OAuth variables are read by src/auth/oauth/ (its own schema).
 */
import * as v from 'valibot';
import { AppError } from '../errors.ts';

const bool = (fallback: 'true' | 'false') => v.optional(v.picklist(['true', 'false']), fallback);
const seconds = (fallback: string, max: number) =>
  v.pipe(v.optional(v.string(), fallback), v.regex(/^\d+$/), v.transform(Number), v.integer(), v.minValue(1), v.maxValue(max));

const DAY = 86_400;

const schema = v.object({
  AUTH_PUBLIC_BASE_URL: v.optional(v.pipe(v.string(), v.url(), v.regex(/^https?:\/\/[^/?#]+\/?$/))),
  AUTH_COOKIE_SECURE: bool('false'),
  AUTH_SESSION_TTL_SECONDS: seconds('43200', 30 * DAY),
  AUTH_PASSWORD_MIN_LENGTH: v.pipe(v.optional(v.string(), '12'), v.regex(/^\d+$/), v.transform(Number), v.integer(), v.minValue(8), v.maxValue(128)),
  AUTH_LOGIN_MAX_FAILURES: v.pipe(v.optional(v.string(), '5'), v.regex(/^\d+$/), v.transform(Number), v.integer(), v.minValue(1), v.maxValue(1000)),
  AUTH_LOGIN_LOCKOUT_SECONDS: seconds('900', DAY),
  // HS256 needs a key at least as long as its output (RFC 7518 §3.2): 32 bytes.
  AUTH_SYSTEM_TOKEN_SECRET: v.optional(v.pipe(v.string(), v.check((s) => new TextEncoder().encode(s).length >= 32))),
  AUTH_SYSTEM_TOKEN_ISSUER: v.optional(v.pipe(v.string(), v.minLength(1)), 'wasi-counter-auth'),
  AUTH_SYSTEM_TOKEN_AUDIENCE: v.optional(v.pipe(v.string(), v.minLength(1)), 'wasi-counter-auth:storage-status'),
});

export interface AuthConfig {
  /** Origin of the public base URL (allowed in Origin checks besides the request's own origin). */
  publicOrigin: string | undefined;
  cookieSecure: boolean;
  sessionTtlSeconds: number;
  passwordMinLength: number;
  loginMaxFailures: number;
  loginLockoutSeconds: number;
  /** Absent: the storage-status endpoint rejects every token (401). */
  systemToken: { secret: Uint8Array; issuer: string; audience: string } | undefined;
}

export function parseAuthConfig(env: ReadonlyMap<string, string>): AuthConfig {
  // An empty value (`AUTH_X=` copied from .env.example) means unset.
  const input = Object.fromEntries([...env].filter(([key, value]) => key.startsWith('AUTH_') && value !== ''));
  const result = v.safeParse(schema, input);
  if (!result.success) {
    const names = [...new Set(result.issues.map((issue) => v.getDotPath(issue) ?? 'AUTH_*'))].sort().join(', ');
    throw new AppError('configuration', `invalid configuration: ${names}`);
  }
  const c = result.output;
  return {
    publicOrigin: c.AUTH_PUBLIC_BASE_URL === undefined ? undefined : new URL(c.AUTH_PUBLIC_BASE_URL).origin,
    cookieSecure: c.AUTH_COOKIE_SECURE === 'true',
    sessionTtlSeconds: c.AUTH_SESSION_TTL_SECONDS,
    passwordMinLength: c.AUTH_PASSWORD_MIN_LENGTH,
    loginMaxFailures: c.AUTH_LOGIN_MAX_FAILURES,
    loginLockoutSeconds: c.AUTH_LOGIN_LOCKOUT_SECONDS,
    systemToken:
      c.AUTH_SYSTEM_TOKEN_SECRET === undefined
        ? undefined
        : { secret: new TextEncoder().encode(c.AUTH_SYSTEM_TOKEN_SECRET), issuer: c.AUTH_SYSTEM_TOKEN_ISSUER, audience: c.AUTH_SYSTEM_TOKEN_AUDIENCE },
  };
}
