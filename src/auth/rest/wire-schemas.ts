/**
 * The wire shapes of the auth REST routes' bodies and answers, as the API document publishes them
 * (contract.ts; src/openapi/ assembles it). The answers are built by plain code, so each schema is
 * checked against the TypeScript type it describes (`Exact<…>` fails the type check when the two
 * drift apart).
 */
import * as v from 'valibot';
import type { SessionView } from './session-view.ts';
import { MailLinkTokenSchema, type StorageStatus } from '../application/index.ts';
import { CredentialsSchema } from './input.ts';
import { DEFAULT_PASSWORD_MIN_LENGTH } from '../config.ts';
import { PASSWORD_MAX_LENGTH } from '../domain/password-policy.ts';
import { timestamp } from '../operation-words.ts';
import { PasskeySchema } from '../passkeys/passkey-schema.ts';
import { RemovePasskeysField } from './remove-passkeys-field.ts';
import { ChangeSchema, ForgotSchema, ResetSchema, VerifySchema } from './mail-routes.ts';

export { CredentialsSchema };
export { AccountDeletionSchema } from './account-routes.ts';

/**
 * Registration's credentials as published: the route's schema with what registration checks after
 * parsing (src/auth/domain/email.ts, the password policy) stated, so a generated "" or "x" is not
 * offered as valid: an address (`format: email`, RFC 5321's 254 octets), a password of at least the
 * default AUTH_PASSWORD_MIN_LENGTH (capabilities.password.min_length tells the configured one).
 * Login takes any strings: a malformed address there is only wrong credentials (401).
 */
export const NewCredentialsSchema = v.object({
  ...CredentialsSchema.entries,
  email: v.pipe(v.string(), v.email(), v.maxLength(254), v.description('an email address (RFC 5321: at most 254 octets)')),
  password: v.pipe(v.string(), v.minLength(DEFAULT_PASSWORD_MIN_LENGTH), v.maxLength(PASSWORD_MAX_LENGTH), CredentialsSchema.entries.password.pipe[1]),
});

/** Compile-time proof that a schema's output is exactly `T` (both directions assignable). */
type Exact<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const exact = <_ extends true>(): void => undefined;

export const SignedOutSchema = v.object({ authenticated: v.literal(false) });
export const SessionViewSchema = v.variant('authenticated', [
  SignedOutSchema,
  v.object({
    authenticated: v.literal(true),
    user_id: v.string(),
    email: v.nullable(v.string()),
    aal: v.pipe(v.string(), v.description('authenticator assurance level: aal1, or aal2 after a passkey sign-in with user verification')),
    amr: v.pipe(v.array(v.string()), v.description('authentication methods, RFC 8176 values: pwd (password); hwk or swk with mfa (a passkey with user verification)')),
    method: v.pipe(v.string(), v.description('how the session was issued: password, oauth:<provider> or passkey')),
    issued_at: timestamp('RFC 3339, UTC'),
    expires_at: timestamp('RFC 3339, UTC'),
  }),
]);
exact<Exact<v.InferOutput<typeof SessionViewSchema>, SessionView>>();
export const SignedInSchema = v.object({
  authenticated: v.literal(true),
  user_id: v.string(),
  email: v.string(),
  expires_at: timestamp('RFC 3339, UTC'),
});
/** The one answer to a registration, free email or taken (no account enumeration, docs/security.md). */
export const RegistrationAcceptedSchema = v.object({
  status: v.literal('accepted'),
  message: v.string(),
  login: v.pipe(v.string(), v.description('where to sign in next')),
});
export const CapabilitiesSchema = v.object({
  password: v.object({
    enabled: v.literal(true),
    min_length: v.pipe(v.number(), v.integer(), v.minValue(1)),
    register: v.string(),
    login: v.string(),
    reset: v.pipe(v.boolean(), v.description('whether "forgot password" mails reset links (AUTH_PUBLIC_BASE_URL is set)')),
  }),
  email_verification: v.object({ enabled: v.pipe(v.boolean(), v.description('whether registration mails a verification link (AUTH_PUBLIC_BASE_URL is set)')) }),
  oauth: v.object({
    providers: v.array(v.object({ id: v.string(), label: v.string(), start: v.pipe(v.string(), v.description('path of the start route')) })),
  }),
  passkeys: v.object({
    enabled: v.pipe(v.boolean(), v.description('passkeys are offered: AUTH_PUBLIC_BASE_URL is set (its host is the RP ID)')),
    authentication_options: v.pipe(v.string(), v.description('path that starts a passkey sign-in')),
  }),
});
export const StorageStatusSchema = v.object({
  events: v.pipe(v.record(v.string(), v.pipe(v.number(), v.integer(), v.minValue(0))), v.description('count by auth event type; every known type, 0 when none')),
  total: v.pipe(v.number(), v.integer(), v.minValue(0)),
  latest_sequence: v.pipe(v.number(), v.integer(), v.minValue(0)),
  projections: v.array(v.object({ name: v.string(), checkpoint: v.pipe(v.number(), v.integer(), v.minValue(0)) })),
});
exact<Exact<v.InferOutput<typeof StorageStatusSchema>, StorageStatus>>();
/** GET /api/auth/sessions (src/auth/rest/session-routes.ts). */
export const SessionListSchema = v.object({
  sessions: v.array(
    v.object({
      id: v.pipe(v.string(), v.description('public handle for DELETE /api/auth/sessions/{id}; never the session id')),
      device: v.pipe(v.string(), v.description('a coarse device hint from the User-Agent at sign-in')),
      method: v.pipe(v.string(), v.description('password or oauth:<provider>')),
      issued_at: timestamp('RFC 3339, UTC'),
      last_seen_at: timestamp('RFC 3339, UTC'),
      expires_at: timestamp('RFC 3339, UTC'),
      current: v.pipe(v.boolean(), v.description('the session of the cookie this request carried')),
    }),
  ),
});
export const SessionsRevokedSchema = v.object({
  revoked: v.pipe(v.number(), v.integer(), v.minValue(0)),
  passkeys_removed: v.pipe(v.number(), v.integer(), v.minValue(0), v.description('passkeys removed (`remove_passkeys`)')),
});

/** A mailed link's token, as the routes check it before any lookup (src/auth/application/mail-links.ts). */
const MailToken = v.pipe(MailLinkTokenSchema, v.description("the `token` query parameter of the mailed link's address: the link's id, a dot, its secret"));
/** A new password, as the policy measures it (see NewCredentials). */
const NewPassword = NewCredentialsSchema.entries.password;

/** The mail routes' bodies as published: their schemas (./mail-routes.ts), with what the routes check after parsing stated. */
export const ForgotPasswordBodySchema = v.object({ ...ForgotSchema.entries, email: NewCredentialsSchema.entries.email });
export const ResetPasswordBodySchema = v.object({ ...ResetSchema.entries, token: MailToken, password: NewPassword });
export const ChangePasswordBodySchema = v.object({ ...ChangeSchema.entries, new_password: NewPassword });
/** POST /api/auth/sessions/revoke-all: no body, or the choice to remove the passkeys too (parsed and published alike). */
export const RevokeAllBodySchema = v.object({ remove_passkeys: RemovePasskeysField });
export const VerifyEmailBodySchema = v.object({ ...VerifySchema.entries, token: MailToken });

/** POST /api/auth/password/forgot: the one answer, whatever the address (src/auth/rest/mail-routes.ts). */
export const ResetRequestedSchema = v.object({ status: v.literal('accepted'), message: v.string() });
export const PasswordResetSchema = v.object({
  status: v.literal('password_reset'),
  sessions_ended: v.pipe(v.number(), v.integer(), v.minValue(0), v.description('every session of the account ended')),
  passkeys_removed: v.pipe(
    v.number(),
    v.integer(),
    v.minValue(0),
    v.description('every passkey when the reset was the first proof of the address (an unverified one, now verified), else those `remove_passkeys` asked to remove'),
  ),
  passkeys: v.pipe(v.array(PasskeySchema), v.description('the passkeys the account still has: remove any you do not know (a form post gets a page to do it)')),
});
export const PasswordChangedSchema = v.object({
  status: v.literal('password_changed'),
  sessions_ended: v.pipe(v.number(), v.integer(), v.minValue(0), v.description('the other sessions of the account ended; this one stays')),
  passkeys_removed: v.pipe(v.number(), v.integer(), v.minValue(0), v.description('passkeys removed (`remove_passkeys`)')),
});
export const EmailVerifiedSchema = v.object({ status: v.literal('email_verified') });
export const VerificationResentSchema = v.object({ status: v.literal('accepted') });
