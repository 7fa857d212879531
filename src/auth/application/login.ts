/**
 * Password login. A wrong email and a wrong password fail the same way (`invalid_credentials`)
 * and cost the same: an unknown email is verified against a dummy hash. Each attempt is reserved
 * for the (email, client address) pair before any hashing (rate-limit.ts): past the limit the pair
 * is locked (429 with Retry-After).
 */
import { AppError } from '../../errors.ts';
import type { Platform } from '../../platform/ports.ts';
import { normalizeEmail } from '../domain/email.ts';
import type { PasswordLoginSucceeded } from '../domain/events.ts';
import { PASSWORD_MAX_INPUT_UNITS, PASSWORD_MAX_LENGTH, passwordForHashing } from '../domain/password-policy.ts';
import { findAccountByEmailHash } from './accounts.ts';
import type { AuthDeps } from './deps.ts';
import { authEvent } from './event-codec.ts';
import { clearLoginAttempts, loginPairKey, reserveLoginAttempt } from './rate-limit.ts';
import { UNKNOWN_CLIENT, type Credentials, type SignedIn, type SignInContext } from './register.ts';
import { sha256Hex } from './secrets.ts';
import { issueSession } from './sessions.ts';
import { authStoreFailure } from './store-failure.ts';
import { authStreams } from './streams.ts';

/** One dummy hash per instance, made with the host's current parameters so timing matches. */
let dummyHash: string | undefined;
function dummy(platform: Platform): string {
  dummyHash ??= platform.passwords.hash(crypto.randomUUID());
  return dummyHash;
}

/** `context.client` (the caller's address) scopes the lock; `context.device` labels the session. */
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
  const pairKey = await loginPairKey(emailHash, context.client);
  try {
    reserveLoginAttempt(deps, pairKey);
    const account = findAccountByEmailHash(platform, emailHash);
    const matches = !tooLong && platform.passwords.verify(password, account?.passwordHash ?? dummy(platform));
    if (!account?.passwordHash || !matches) throw new AppError('invalid_credentials');
    clearLoginAttempts(deps, pairKey);
    const data: PasswordLoginSucceeded = { user_id: account.userId };
    platform.events.append(authStreams.user(account.userId), { tag: 'any' }, [authEvent('auth_password_login_succeeded', data)]);
    const session = await issueSession(deps, { userId: account.userId, email: account.email, aal: 'aal1', method: 'password', device: context.device });
    return { userId: account.userId, email: account.email, session };
  } catch (error) {
    throw authStoreFailure(error);
  }
}
