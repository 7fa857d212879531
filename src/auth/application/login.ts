/**
 * Password login. A wrong email and a wrong password fail the same way (`invalid_credentials`)
 * and cost the same: an unknown email is verified against a dummy hash. Before any hashing, each
 * attempt is reserved twice: against the account's budget (account-budget.ts: slowed down after a
 * few failures from anywhere), unless the browser shows this account's device cookie
 * (device-cookie.ts), and for the (email, client address) pair, or (email, device) for a known
 * device (rate-limit.ts: locked past the limit). Refusals are 429 with Retry-After. A success
 * gives the browser the account's device cookie.
 */
import { AppError } from '../../errors.ts';
import type { Platform } from '../../platform/ports.ts';
import { normalizeEmail } from '../domain/email.ts';
import type { PasswordLoginSucceeded } from '../domain/events.ts';
import { PASSWORD_MAX_INPUT_UNITS, PASSWORD_MAX_LENGTH, passwordForHashing } from '../domain/password-policy.ts';
import { findAccountByEmailHash } from './accounts.ts';
import type { AuthDeps } from './deps.ts';
import { authEvent } from './event-codec.ts';
import { clientKey } from '../../contract/client-key.ts';
import { releaseAccountAttempt, reserveAccountAttempt, type AccountReservation } from './account-budget.ts';
import { deviceSetCookie, knownDevice } from './device-cookie.ts';
import { clearLoginAttempts, loginPairKey, reserveLoginAttempt } from './rate-limit.ts';
import { UNKNOWN_CLIENT, type Credentials, type SignedIn, type SignInContext } from './register.ts';
import { sha256Hex } from './secrets.ts';
import { issueSession } from './sessions.ts';
import { assertAccountEnabled } from './account-access.ts';
import { authStreams } from './streams.ts';

/** One dummy hash per instance, made with the host's current parameters so timing matches. */
let dummyHash: string | undefined;
function dummy(platform: Platform): string {
  dummyHash ??= platform.passwords.hash(crypto.randomUUID());
  return dummyHash;
}

/**
 * `context.client` (the caller's address) scopes the lock, `context.deviceCookie` may exempt
 * from the account's budget; `context.device` labels the session.
 */
export async function loginWithPassword(deps: AuthDeps, input: Credentials, context: SignInContext = UNKNOWN_CLIENT): Promise<SignedIn> {
  const { platform } = deps;
  let email: string;
  try {
    email = normalizeEmail(input.email);
  } catch {
    throw new AppError('invalid_credentials');
  }
  // Too long to be a valid password: no normalizing, no KDF. A character the hosts could not
  // normalize alike is refused (400 validation) before an attempt is counted.
  const password = input.password.length > PASSWORD_MAX_INPUT_UNITS ? undefined : passwordForHashing(input.password);
  const tooLong = password === undefined || [...password].length > PASSWORD_MAX_LENGTH;
  const emailHash = await sha256Hex(email);
  try {
    const knownDeviceId = knownDevice(deps, context.deviceCookie, emailHash);
    const pairKey = await loginPairKey(emailHash, knownDeviceId === undefined ? clientKey(context.client) : `device:${knownDeviceId}`);
    const reservation = knownDeviceId === undefined ? reserveAccountAttempt(deps, emailHash) : undefined;
    const account = verifyReserved(deps, reservation, pairKey, emailHash, password, tooLong);
    if (!account) throw new AppError('invalid_credentials');
    clearLoginAttempts(deps, pairKey);
    // Only after the password matched: a disabled account tells no one who lacks it.
    assertAccountEnabled(deps, account.userId);
    const data: PasswordLoginSucceeded = { user_id: account.userId };
    platform.events.append(authStreams.user(account.userId), { tag: 'any' }, [authEvent('auth_password_login_succeeded', data)]);
    const session = await issueSession(deps, { userId: account.userId, email: account.email, aal: 'aal1', method: 'password', device: context.device });
    return { userId: account.userId, email: account.email, session, deviceCookie: deviceSetCookie(deps, emailHash, knownDeviceId) };
  } catch (error) {
    throw AppError.fromStore(error);
  }
}

/**
 * Reserves the pair's attempt and runs the KDF; the account's reservation is given back when the
 * pair refuses (no KDF ran) or the password matched (a success is no failure). The account, when
 * the password matched it.
 */
function verifyReserved(deps: AuthDeps, reservation: AccountReservation | undefined, pairKey: string, emailHash: string, password: string | undefined, tooLong: boolean) {
  const { platform } = deps;
  try {
    reserveLoginAttempt(deps, pairKey);
  } catch (error) {
    if (reservation) releaseAccountAttempt(deps, reservation);
    throw error;
  }
  const account = findAccountByEmailHash(platform, emailHash);
  const matches = !tooLong && platform.passwords.verify(password!, account?.passwordHash ?? dummy(platform));
  if (!account?.passwordHash || !matches) return undefined;
  if (reservation) releaseAccountAttempt(deps, reservation);
  return account;
}
