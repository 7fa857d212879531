/**
 * The wire shapes the OpenAPI document publishes, as valibot schemas. Inputs and the CounterView
 * are the schemas the routes themselves validate with (imported); the auth answers are built by
 * plain code, so their schemas live here, each checked against the TypeScript type it describes
 * (`Exact<…>` below fails the type-check when the two drift apart).
 */
import * as v from 'valibot';
import { APP_ERROR_CODES } from '../errors.ts';
import { OAUTH_FAILURES } from '../auth/oauth/flow/failures.ts';
import type { SessionView } from '../auth/rest/session-view.ts';
import type { StorageStatus } from '../auth/application/index.ts';
import type { ErrorEnvelope } from '../http/errors.ts';

import { CredentialsSchema } from '../auth/rest/input.ts';
import type { PasskeySummary } from '../auth/passkeys/manage.ts';
import { PasskeyAuthenticationBodySchema, PasskeyRegistrationBodySchema, PasskeyRenameBodySchema } from '../auth/passkeys/routes.ts';
export { CredentialsSchema };
export { AccountDeletionSchema } from '../auth/rest/account-routes.ts';
import { DEFAULT_PASSWORD_MIN_LENGTH } from '../auth/config.ts';
import { PASSWORD_MAX_LENGTH } from '../auth/domain/password-policy.ts';

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

const timestamp = (description: string) => v.pipe(v.string(), v.isoTimestamp(), v.description(description));

export const ErrorEnvelopeSchema = v.object({
  error: v.object({
    code: v.picklist(APP_ERROR_CODES),
    message: v.pipe(v.string(), v.description('public text; never internal detail')),
    reason: v.optional(v.pipe(v.picklist(Object.keys(OAUTH_FAILURES) as Array<keyof typeof OAUTH_FAILURES>), v.description('OAuth routes only, with Accept: application/json'))),
  }),
});
exact<Exact<Omit<v.InferOutput<typeof ErrorEnvelopeSchema>['error'], 'reason'>, ErrorEnvelope['error']>>();

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

/** One passkey of the signed-in user (src/auth/passkeys/manage.ts). */
export const PasskeySchema = v.object({
  id: v.pipe(v.string(), v.description('SHA-256 (hex) of the credential id: what rename and remove take')),
  name: v.string(),
  created_at: timestamp('RFC 3339, UTC'),
  last_used_at: v.nullable(timestamp('RFC 3339, UTC; null before its first sign-in')),
  backed_up: v.pipe(v.boolean(), v.description('a synced passkey (WebAuthn Level 3 §6.1.3, backup state)')),
  transports: v.array(v.string()),
});
exact<Exact<v.InferOutput<typeof PasskeySchema>, PasskeySummary>>();

export const PasskeyListSchema = v.object({ passkeys: v.array(PasskeySchema) });

/** WebAuthn options as the browser's `PublicKeyCredential.parseCreationOptionsFromJSON()` / `parseRequestOptionsFromJSON()` take them (WebAuthn Level 3). */
export const PasskeyCreationOptionsSchema = v.pipe(
  v.looseObject({ rp: v.looseObject({ id: v.optional(v.string()), name: v.string() }), user: v.looseObject({ id: v.string(), name: v.string() }), challenge: v.string() }),
  v.description('PublicKeyCredentialCreationOptionsJSON: discoverable credential and user verification required, attestation none'),
);
export const PasskeyRequestOptionsSchema = v.pipe(
  v.looseObject({ rpId: v.optional(v.string()), challenge: v.string(), userVerification: v.optional(v.string()) }),
  v.description('PublicKeyCredentialRequestOptionsJSON: no allowCredentials (discoverable credentials), user verification required'),
);

export const PasskeySignedInSchema = v.object({
  authenticated: v.literal(true),
  user_id: v.string(),
  email: v.nullable(v.string()),
  aal: v.literal('aal2'),
  expires_at: timestamp('RFC 3339, UTC'),
  next: v.pipe(v.string(), v.description('the same-site path to go to, from the request (else /dashboard)')),
});

export { PasskeyAuthenticationBodySchema, PasskeyRegistrationBodySchema, PasskeyRenameBodySchema };

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

export const SessionsRevokedSchema = v.object({ revoked: v.pipe(v.number(), v.integer(), v.minValue(0)) });

export { codeSchema as OAuthCallbackCodeSchema, errorSchema as OAuthCallbackErrorSchema } from '../auth/oauth/callback-params.ts';

/** A mailed link's token, as the routes check it before any lookup (src/auth/application/mail-links.ts). */
const MailToken = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{43}$/), v.description("the `token` query parameter of the mailed link's address"));
/** A new password, as the policy measures it (see NewCredentials). */
const NewPassword = NewCredentialsSchema.entries.password;

/** The mail routes' bodies (src/auth/rest/mail-routes.ts), with what the routes check after parsing. */
export const ForgotPasswordBodySchema = v.object({ email: NewCredentialsSchema.entries.email });
export const ResetPasswordBodySchema = v.object({ token: MailToken, password: NewPassword });
export const ChangePasswordBodySchema = v.object({ current_password: v.pipe(v.string(), v.maxLength(4096)), new_password: NewPassword });
export const VerifyEmailBodySchema = v.object({ token: MailToken });

/** POST /api/auth/password/forgot: the one answer, whatever the address (src/auth/rest/mail-routes.ts). */
export const ResetRequestedSchema = v.object({ status: v.literal('accepted'), message: v.string() });
export const PasswordResetSchema = v.object({
  status: v.literal('password_reset'),
  sessions_ended: v.pipe(v.number(), v.integer(), v.minValue(0), v.description('every session of the account ended')),
});
export const PasswordChangedSchema = v.object({
  status: v.literal('password_changed'),
  sessions_ended: v.pipe(v.number(), v.integer(), v.minValue(0), v.description('the other sessions of the account ended; this one stays')),
});
export const EmailVerifiedSchema = v.object({ status: v.literal('email_verified') });
export const VerificationResentSchema = v.object({ status: v.literal('accepted') });
