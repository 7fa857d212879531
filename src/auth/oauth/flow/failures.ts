/**
 * Why an OAuth sign-in failed, as a typed AppError: the envelope `code` stays in the closed
 * AppError set (it picks the HTTP status), and `reason` is the OAuth-specific, value-free detail
 * clients and operators can act on. Provider failures (OAuthError) map here, at the flow's edge.
 */
import { AppError, type AppErrorCode } from '../../../errors.ts';
import { OAuthError, type OAuthErrorCode } from '../errors.ts';

/** reason → [envelope code, public message]; exported for the OpenAPI document's error table. */
export const OAUTH_FAILURES = {
  oauth_provider_not_offered: ['not_found', 'this sign-in provider is not offered'],
  oauth_start_cross_site: ['forbidden', 'a sign-in starts from a link or button you open, not from inside another site'],
  oauth_callback_malformed: ['validation', 'the sign-in response is incomplete or malformed'],
  oauth_state_unknown: ['validation', 'the sign-in attempt is unknown; start again from the sign-in page'],
  oauth_state_expired: ['validation', 'the sign-in attempt expired; start again from the sign-in page'],
  oauth_provider_mismatch: ['validation', 'the sign-in attempt was started with another provider'],
  oauth_browser_mismatch: ['forbidden', 'this sign-in was started in another browser or its cookie expired; start again from the sign-in page'],
  oauth_state_reused: ['conflict', 'this sign-in response was already used; start again from the sign-in page'],
  oauth_provider_error: ['forbidden', 'the provider did not authorize the sign-in'],
  oauth_token_exchange_failed: ['unauthorized', 'the provider refused the authorization code'],
  oauth_id_token_invalid: ['unauthorized', 'the identity token from the provider is not valid'],
  oauth_profile_failed: ['unauthorized', 'the provider did not return a usable profile'],
  oauth_jwks_unavailable: ['internal', 'the provider signing keys are unavailable; try again later'],
  oauth_signing_key_invalid: ['configuration', 'the service is misconfigured'],
  oauth_link_sign_in_required: ['unauthorized', 'sign in to the account you want to link the provider to first'],
  oauth_link_account_unverified: ['forbidden', 'verify your account’s email address before linking a provider; nothing was linked'],
  oauth_link_session_changed: ['forbidden', 'this browser is no longer signed in to the account that started the linking; nothing was linked'],
  oauth_link_email_unverified: ['forbidden', 'the provider did not confirm that its email address is verified; nothing was linked'],
  oauth_link_email_mismatch: ['forbidden', 'the provider’s email address is not your account’s verified address; nothing was linked'],
  oauth_link_identity_taken: ['conflict', 'this provider identity is linked to another account; nothing was linked'],
} as const satisfies Record<string, readonly [AppErrorCode, string]>;

export type OAuthFailureReason = keyof typeof OAUTH_FAILURES;

export class OAuthSignInError extends AppError {
  readonly reason: OAuthFailureReason;
  /** value-free detail for the log (e.g. the OAuthError reason `nonce`, or the provider's RFC error code) */
  readonly detail: string | undefined;
  constructor(reason: OAuthFailureReason, options: { detail?: string; cause?: unknown } = {}) {
    const [code, message] = OAUTH_FAILURES[reason];
    super(code, message, { cause: options.cause });
    this.reason = reason;
    this.detail = options.detail;
  }
}

const BY_PROVIDER_CODE: Record<OAuthErrorCode, OAuthFailureReason> = {
  token_exchange_failed: 'oauth_token_exchange_failed',
  id_token_invalid: 'oauth_id_token_invalid',
  profile_failed: 'oauth_profile_failed',
  jwks_failed: 'oauth_jwks_unavailable',
  signing_key_invalid: 'oauth_signing_key_invalid',
};

/** A provider module's failure as the flow's error; anything else passes through AppError.from. */
export function signInFailure(error: unknown): AppError {
  if (error instanceof OAuthError) {
    const detail = error.status === undefined ? error.reason : `${error.reason}:${error.status}`;
    return new OAuthSignInError(BY_PROVIDER_CODE[error.code], { detail, cause: error });
  }
  return AppError.from(error);
}
