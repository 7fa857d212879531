/**
 * Typed OAuth failures with a closed code set and fixed public messages (no token, claim value or
 * provider body ever reaches a message). `reason` is a closed, value-free detail for logs and tests.
 * The flow maps these to the application's error envelope at the transport edge.
 */

const OAUTH_ERROR_CODES = ['id_token_invalid', 'token_exchange_failed', 'profile_failed', 'jwks_failed', 'signing_key_invalid'] as const;

export type OAuthErrorCode = (typeof OAUTH_ERROR_CODES)[number];

/** Why an ID token was refused: safe to log, never contains a value from the token. */
export type IdTokenRejection =
  | 'malformed'
  | 'alg_none'
  | 'alg_not_allowed'
  | 'unknown_kid'
  | 'bad_signature'
  | 'issuer'
  | 'audience'
  | 'authorized_party'
  | 'expired'
  | 'not_yet_valid'
  | 'issued_at'
  | 'nonce'
  | 'subject';

export type OAuthErrorReason = IdTokenRejection | 'http_status' | 'network' | 'response_shape' | 'pem' | 'curve';

const MESSAGES: Record<OAuthErrorCode, string> = {
  id_token_invalid: 'the identity token from the provider is not valid',
  token_exchange_failed: 'the provider refused the authorization code',
  profile_failed: 'the provider did not return a usable profile',
  jwks_failed: 'the provider signing keys are unavailable',
  signing_key_invalid: 'the client-secret signing key is not a usable P-256 private key',
};

export class OAuthError extends Error {
  readonly code: OAuthErrorCode;
  readonly reason: OAuthErrorReason;
  /** HTTP status of the provider response, when one caused the failure (safe to log). */
  readonly status: number | undefined;
  constructor(code: OAuthErrorCode, reason: OAuthErrorReason, options: { status?: number; cause?: unknown } = {}) {
    super(MESSAGES[code], { cause: options.cause });
    this.name = 'OAuthError';
    this.code = code;
    this.reason = reason;
    this.status = options.status;
  }
}

/** Shorthand for an ID-token rejection. */
export function rejectIdToken(reason: IdTokenRejection): OAuthError {
  return new OAuthError('id_token_invalid', reason);
}
