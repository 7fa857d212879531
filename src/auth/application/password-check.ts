/**
 * The one password check. Every place that verifies a password someone typed (login, the account
 * page's password change, account deletion's re-authentication) goes through it, so every guess
 * counts in the same limits whichever route carries it (NIST SP 800-63B §5.2.2; OWASP ASVS V2.2.1):
 * a stolen session cannot guess the password through the account page faster than a login could.
 *
 * Before any hashing each check is reserved twice: against the account's budget
 * (account-budget.ts: slowed down after a few failures from anywhere), unless the browser shows
 * this account's device cookie (device-cookie.ts), and for the (email, client address) pair, or
 * (email, device) for a known device (rate-limit.ts: locked past the limit). Refusals throw
 * RateLimitedError (429 with Retry-After) and run no KDF. An unknown email is verified against a
 * dummy hash, so it costs what a known one costs.
 */
import type { Platform } from '../../platform/ports.ts';
import { clientKey } from '../../contract/client-key.ts';
import { PASSWORD_MAX_INPUT_UNITS, PASSWORD_MAX_LENGTH, passwordForHashing } from '../domain/password-policy.ts';
import { findAccountByEmailHash, type Account } from './accounts.ts';
import { releaseAccountAttempt, reserveAccountAttempt } from './account-budget.ts';
import type { AuthDeps } from './deps.ts';
import { knownDevice } from './device-cookie.ts';
import { clearLoginAttempts, loginPairKey, reserveLoginAttempt } from './rate-limit.ts';

/** One dummy hash per instance, made with the host's current parameters so timing matches. */
let dummyHash: string | undefined;
function dummy(platform: Platform): string {
  dummyHash ??= platform.passwords.hash(crypto.randomUUID());
  return dummyHash;
}

export interface PasswordAttempt {
  /** The address's hash (secrets.ts `sha256Hex` of the normalized email). */
  emailHash: string;
  /** The password as typed. */
  password: string;
  /** The client's address: scopes the pair's lock. */
  client: string;
  /** The device cookie the browser sent, if any: a known device skips the account's budget. */
  deviceCookie?: string | undefined;
}

export interface CheckedPassword {
  /** The account, when the password is its password; undefined for a wrong password or no such account. */
  account: Account | undefined;
  /** The device the cookie named, when it is one of this account's. */
  knownDeviceId: string | undefined;
}

/**
 * Checks `attempt` (see above). A match gives back the account's reservation (a success is no
 * failure) and clears the pair's count; a mismatch counts in both. Throws RateLimitedError when
 * either limit refuses, and a 400 validation error, counted nowhere, for a password the hosts
 * could not normalize alike.
 */
export async function checkPasswordAttempt(deps: AuthDeps, attempt: PasswordAttempt): Promise<CheckedPassword> {
  const { platform } = deps;
  const { emailHash } = attempt;
  // Too long to be a valid password: no normalizing, no KDF, but counted like any guess.
  const password = attempt.password.length > PASSWORD_MAX_INPUT_UNITS ? undefined : passwordForHashing(attempt.password);
  const tooLong = password === undefined || [...password].length > PASSWORD_MAX_LENGTH;
  const knownDeviceId = knownDevice(deps, attempt.deviceCookie, emailHash);
  const pairKey = await loginPairKey(emailHash, knownDeviceId === undefined ? clientKey(attempt.client) : `device:${knownDeviceId}`);
  const reservation = knownDeviceId === undefined ? reserveAccountAttempt(deps, emailHash) : undefined;
  try {
    reserveLoginAttempt(deps, pairKey);
  } catch (error) {
    // The pair refused: no KDF ran, so the account's reservation is given back.
    if (reservation) releaseAccountAttempt(deps, reservation);
    throw error;
  }
  const account = findAccountByEmailHash(platform, emailHash);
  const matches = !tooLong && platform.passwords.verify(password!, account?.passwordHash ?? dummy(platform));
  if (!account?.passwordHash || !matches) return { account: undefined, knownDeviceId };
  if (reservation) releaseAccountAttempt(deps, reservation);
  clearLoginAttempts(deps, pairKey);
  return { account, knownDeviceId };
}
