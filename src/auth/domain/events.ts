/**
 * The auth service's events: kinds and payloads. Every kind starts with `auth_` so
 * `count-by-type("auth_")` counts exactly them. Payloads never hold a password, a session id or
 * a token; a password *hash* lives only in the registration event (it is what login verifies).
 */

/** Every kind this service writes; storage status reports each (0 when none yet). */
export const AUTH_EVENT_TYPES = [
  'auth_password_user_registered',
  'auth_external_user_registered',
  'auth_password_login_succeeded',
  'auth_session_issued',
  'auth_session_revoked',
  // Written by the OAuth flow (src/auth/oauth/). Its pending states live in key-value, not here
  // (stores from before hold `auth_oauth_state_created`/`_consumed` events; they are still counted).
  'auth_external_identity_linked',
  // Managing sign-in methods (application/sign-in-method-removal.ts): in the user's stream.
  'auth_external_identity_unlinked',
  'auth_password_removed',
  // Passkeys (src/auth/passkeys/): the user's list, and each credential's claim and uses.
  'auth_passkey_registered',
  'auth_passkey_renamed',
  'auth_passkey_removed',
  'auth_passkey_claimed',
  'auth_passkey_used',
  // Written by the mail flows (application/email-verification.ts, application/password-reset.ts).
  'auth_email_verified',
  'auth_password_changed',
  // Written by the administration API (src/auth/admin/): each names the administrator's subject.
  'auth_account_disabled',
  'auth_account_enabled',
  'auth_admin_sessions_revoked',
  'auth_admin_reset_link_sent',
  'auth_admin_account_deleted',
  // Changing the address (application/email-change.ts): the claim moved to the new address, and
  // the user's address record that makes the move count (application/email-address.ts).
  'auth_email_claimed',
  'auth_email_changed',
  // Another account took over a claim of the user's that counted for nobody (application/claim-takeover.ts).
  'auth_email_claim_released',
] as const;

export type AuthEventType = (typeof AUTH_EVENT_TYPES)[number];

export type AssuranceLevel = 'aal1' | 'aal2';

/** In stream `auth-email-<sha256(email)>`, created with no-stream: the claim that makes emails unique. */
export interface PasswordUserRegistered {
  user_id: string;
  email: string;
  password_hash: string;
}

/** In stream `auth-email-<hash>` (when the provider gave an email) for an account made by an external sign-in. */
export interface ExternalUserRegistered {
  user_id: string;
  email: string | null;
  provider: string;
}

/**
 * In the stream of the session the sign-in opened (`auth-session-<hash>`, after its issue event),
 * removed with it by retention. Stores from before keep older ones in `auth-user-<user id>`; the
 * retention pass removes that stream when it holds nothing else (application/retention.ts).
 */
export interface PasswordLoginSucceeded {
  user_id: string;
}

/** In stream `auth-session-<sha256(session id)>`, created with no-stream. */
export interface SessionIssued {
  user_id: string;
  email: string | null;
  aal: AssuranceLevel;
  /** `password`, `oauth:<provider>` or `passkey` */
  method: string;
  /** epoch ms */
  issued_at: number;
  /** epoch ms */
  expires_at: number;
  /**
   * The session's public handle (random, not the id and not derived from it): what the session
   * list shows and revoking one takes. Absent on sessions issued before it existed.
   */
  handle?: string;
  /** A short device hint from the User-Agent (domain/device-hint.ts), never the raw header. */
  device?: string;
  /**
   * Authentication methods (RFC 8176 §2 values), recorded since passkeys; sessions issued before
   * it derive theirs from `method` (domain/session.ts).
   */
  amr?: string[];
}

export interface SessionRevoked {
  user_id: string;
  /** epoch ms */
  revoked_at: number;
}

/** In stream `auth-identity-<provider>-<sha256(subject)>`, created with no-stream. */
export interface ExternalIdentityLinked {
  user_id: string;
  provider: string;
  subject_hash: string;
  email: string | null;
}

/**
 * In stream `auth-user-<user id>`: the owner unlinked this identity (its `auth-identity-…` stream
 * is removed, so the subject signs in nowhere until linked again). A later sign-in with it does not
 * join this account by email (external-identity.ts): the owner said no to it.
 */
export interface ExternalIdentityUnlinked {
  user_id: string;
  provider: string;
  subject_hash: string;
  /** epoch ms */
  unlinked_at: number;
}

/** In stream `auth-email-<hash>`: the owner removed the password; login finds none from now on. */
export interface PasswordRemoved {
  user_id: string;
  /** epoch ms */
  removed_at: number;
}

/** In stream `auth-email-<hash>`: the owner followed the verification link mailed to the address. */
export interface EmailVerified {
  user_id: string;
  /** epoch ms */
  verified_at: number;
}

/** In stream `auth-email-<hash>`: the account's password hash from now on (login reads the newest). */
export interface PasswordChanged {
  user_id: string;
  password_hash: string;
  /** `reset` (a mailed link) or `change` (from the account page, with the current password) */
  via: 'reset' | 'change';
}

/**
 * In stream `auth-access-<user id>`: an administrator disabled the account (no sign-in by any
 * method; its sessions were ended). The stream's newest event is the account's access state.
 */
export interface AccountDisabled {
  user_id: string;
  /** the administrator's subject (`sub` of their token) */
  by: string;
  /** epoch ms */
  at: number;
}

/** In stream `auth-access-<user id>`: an administrator enabled the account again. */
export interface AccountEnabled {
  user_id: string;
  by: string;
  /** epoch ms */
  at: number;
}

/**
 * In stream `auth-admin-<sha256(administrator subject)>`: the administrator's actions that change
 * no state of their own (the sessions' and the mail's streams hold that). This stream outlives an
 * erased account: it keeps the account's random id, nothing else of it.
 */
export interface AdminSessionsRevoked {
  user_id: string;
  by: string;
  /** how many sessions ended */
  sessions: number;
  /** epoch ms */
  at: number;
}

export interface AdminResetLinkSent {
  user_id: string;
  by: string;
  /** epoch ms */
  at: number;
}

export interface AdminAccountDeleted {
  user_id: string;
  by: string;
  /** epoch ms */
  at: number;
}

/**
 * In stream `auth-email-<sha256(email)>`, created with no-stream: the claim an address change (or
 * its undo) moves to this address, carrying the account's password hash. It counts only while the
 * user's address record (`auth_email_changed`) names this address (application/email-address.ts);
 * the address is verified: opening the mailed link proved the mailbox.
 */
export interface EmailClaimed {
  user_id: string;
  email: string;
  /** the account's password hash when it has one (login reads the newest, as for a registration) */
  password_hash: string | null;
  /** sha256 of the address the claim moves from; null when the account owned none */
  from_hash: string | null;
  via: 'change' | 'undo';
}

/**
 * In stream `auth-address-<user id>`, appended at its exact revision: the user's address is now
 * `email` (`to_hash`). The newest one is the account's address; appending it is the moment a move
 * happens (application/email-change.ts).
 */
export interface EmailChanged {
  user_id: string;
  email: string;
  from_hash: string | null;
  to_hash: string;
  via: 'change' | 'undo';
  /** epoch ms */
  changed_at: number;
}

/**
 * In stream `auth-address-<user id>` (the user's, not the taker's), appended at its exact revision
 * (no-stream when the user has no record yet) by another account about to take over a claim of the
 * user's that counted for nobody (application/claim-takeover.ts). It changes no address: it moves
 * the record's revision, so a move of the user's that read the record before fails its append.
 * It names no address, not even hashed: the address becomes the taker's, and the record outlives
 * the taker's deletion.
 */
export interface EmailClaimReleased {
  user_id: string;
  /** epoch ms */
  released_at: number;
}
