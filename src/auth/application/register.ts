/**
 * Password registration: normalize the email, apply the password policy, hash on the host, then
 * claim the email stream with no-stream (`auth_password_user_registered`). A lost claim means
 * the email is taken (409 `conflict`). The new account is signed in at once.
 */
import { AppError } from '../../errors.ts';
import { normalizeEmail } from '../domain/email.ts';
import type { PasswordUserRegistered } from '../domain/events.ts';
import { checkPassword } from '../domain/password-policy.ts';
import type { AuthDeps } from './deps.ts';
import { authEvent } from './event-codec.ts';
import { runAuthProjectionQuietly } from './projection.ts';
import { sha256Hex } from './secrets.ts';
import { issueSession, type IssuedSession } from './sessions.ts';
import { authStoreFailure, isConflict } from './store-failure.ts';
import { authStreams } from './streams.ts';

export interface Credentials {
  email: string;
  password: string;
}

export interface SignedIn {
  userId: string;
  email: string;
  session: IssuedSession;
}

export async function registerWithPassword(deps: AuthDeps, input: Credentials): Promise<SignedIn> {
  const email = normalizeEmail(input.email);
  checkPassword(input.password, deps.config.passwordMinLength);
  const emailHash = await sha256Hex(email);
  const userId = crypto.randomUUID();
  let passwordHash: string;
  try {
    passwordHash = deps.platform.passwords.hash(input.password);
  } catch (error) {
    throw authStoreFailure(error);
  }
  const data: PasswordUserRegistered = { user_id: userId, email, password_hash: passwordHash };
  try {
    deps.platform.events.append(authStreams.email(emailHash), { tag: 'no-stream' }, [authEvent('auth_password_user_registered', data)]);
  } catch (error) {
    if (isConflict(error)) throw new AppError('conflict', 'an account with this email already exists', { cause: error });
    throw authStoreFailure(error);
  }
  runAuthProjectionQuietly(deps.platform);
  const session = await issueSession(deps, { userId, email, aal: 'aal1', method: 'password' });
  return { userId, email, session };
}
