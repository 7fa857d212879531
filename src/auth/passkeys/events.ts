/**
 * The passkey events. A user's passkeys live in the stream `auth-passkeys-<user id>` (registered,
 * renamed, removed: what the account page lists); each credential has its own stream
 * `auth-passkey-<passkey id>`, created with no-stream by its claim (a credential belongs to one
 * account, across hosts); each sign-in appends its use with the signature counter and drops the
 * events before it (store.ts), so the stream holds its newest event only, which alone gives owner,
 * counter, last use and revision. The passkey id is the SHA-256 of the
 * credential id (hex): fixed length for URLs and stream names.
 */

/** In `auth-passkeys-<user id>`. The public key is the COSE key (RFC 9053) the authenticator gave, base64url. */
export interface PasskeyRegistered {
  user_id: string;
  passkey_id: string;
  /** base64url credential id, what `allowCredentials` / `excludeCredentials` name */
  credential_id: string;
  public_key: string;
  /** the signature counter of the attestation (0 for authenticators without one) */
  counter: number;
  transports: string[];
  name: string;
  /** WebAuthn Level 3 §6.1.3 backup state: a synced passkey (`multiDevice`) */
  backed_up: boolean;
  device_type: 'singleDevice' | 'multiDevice';
  /** epoch ms */
  created_at: number;
}

export interface PasskeyRenamed {
  passkey_id: string;
  name: string;
}

export interface PasskeyRemoved {
  passkey_id: string;
  /** epoch ms */
  removed_at: number;
  /** why, when not the owner's own "Remove" (absent in older events): see ./removal.ts */
  reason?: PasskeyRemovalReason;
}

/**
 * Why passkeys were removed in bulk: the first proof of the mailbox on an unverified account
 * (`mailbox_proof`), the owner's choice from a password change, "end all sessions", a completed
 * reset or the link of a "passkey added" mail.
 */
export type PasskeyRemovalReason = 'mailbox_proof' | 'password_change' | 'sessions_ended' | 'password_reset' | 'removal_link';

/** In `auth-passkey-<passkey id>`, created with no-stream. */
export interface PasskeyClaimed {
  user_id: string;
  counter: number;
}

/** In `auth-passkey-<passkey id>`, appended with the revision read (two uses of one state: one loses). */
export interface PasskeyUsed {
  user_id: string;
  counter: number;
  /** epoch ms */
  used_at: number;
}
