/**
 * Ceremony challenges (WebAuthn Level 3 §13.4.3 "Cryptographic Challenges"): random, kept by the
 * server in key-value for CHALLENGE_TTL_MS under the challenge itself, and taken (atomic get and
 * delete) by the one verification that names it, so a challenge is used once even with many
 * hosts on one store. A registration challenge is bound to the user who asked for it.
 */
import { AppError } from '../../errors.ts';
import { randomToken } from '../application/secrets.ts';
import type { AuthDeps } from '../application/deps.ts';
import { refused } from './refusal.ts';

const PASSKEY_CHALLENGES = 'auth-passkey-challenge';

/** How long a ceremony may take, the options' `timeout` too (the autofill waits on /login). */
export const CHALLENGE_TTL_MS = 5 * 60_000;

export type Ceremony = { kind: 'registration'; userId: string } | { kind: 'authentication' };

/** A new challenge (base64url of 32 random bytes) for `ceremony`. */
export function issueChallenge(deps: AuthDeps, ceremony: Ceremony): string {
  const challenge = randomToken(32);
  try {
    deps.platform.keyValue.set(PASSKEY_CHALLENGES, challenge, JSON.stringify(ceremony), BigInt(CHALLENGE_TTL_MS));
  } catch (error) {
    throw AppError.fromStore(error);
  }
  return challenge;
}

/**
 * Takes the challenge the client data names; refused (401 `invalid_credentials`) when unknown,
 * expired, already used or issued for another ceremony or user.
 */
export function takeChallenge(deps: AuthDeps, challenge: string, expected: Ceremony): string {
  let stored: string | undefined;
  try {
    stored = challenge === '' ? undefined : deps.platform.keyValue.take(PASSKEY_CHALLENGES, challenge);
  } catch (error) {
    throw AppError.fromStore(error);
  }
  if (stored !== JSON.stringify(expected)) throw refused(deps, new Error('challenge unknown, expired, already used, or issued for another ceremony or user'));
  return challenge;
}
