/**
 * Password login. A wrong email and a wrong password fail the same way (`invalid_credentials`)
 * and cost the same. The password is checked by the one password check (password-check.ts: the
 * account's budget unless the browser shows this account's device cookie, and the pair's lock);
 * refusals are 429 with Retry-After. A success gives the browser the account's device cookie, and
 * records `auth_password_login_succeeded` in the new session's stream (sessions.ts).
 */
import { AppError } from '../../errors.ts';
import { normalizeEmail } from '../domain/email.ts';
import type { PasswordLoginSucceeded } from '../domain/events.ts';
import type { AuthDeps } from './deps.ts';
import { authEvent } from './event-codec.ts';
import { deviceSetCookie } from './device-cookie.ts';
import { checkPasswordAttempt } from './password-check.ts';
import { UNKNOWN_CLIENT, type Credentials, type SignedIn, type SignInContext } from './register.ts';
import { sha256Hex } from './secrets.ts';
import { issueSession } from './sessions.ts';
import { assertAccountEnabled } from './account-access.ts';

/**
 * `context.client` (the caller's address) scopes the lock, `context.deviceCookie` may exempt
 * from the account's budget; `context.device` labels the session.
 */
export async function loginWithPassword(deps: AuthDeps, input: Credentials, context: SignInContext = UNKNOWN_CLIENT): Promise<SignedIn> {
  let email: string;
  try {
    email = normalizeEmail(input.email);
  } catch {
    throw new AppError('invalid_credentials');
  }
  const emailHash = await sha256Hex(email);
  try {
    const { account, knownDeviceId } = await checkPasswordAttempt(deps, { emailHash, password: input.password, client: context.client, deviceCookie: context.deviceCookie });
    if (!account) throw new AppError('invalid_credentials');
    // Only after the password matched: a disabled account tells no one who lacks it.
    assertAccountEnabled(deps, account.userId);
    const data: PasswordLoginSucceeded = { user_id: account.userId };
    // In the session's stream (sessions.ts): the trace lives as long as the session it opened.
    const trace = [authEvent('auth_password_login_succeeded', data)];
    const session = await issueSession(deps, { userId: account.userId, email: account.email, aal: 'aal1', method: 'password', device: context.device, trace });
    return { userId: account.userId, email: account.email, session, deviceCookie: deviceSetCookie(deps, emailHash, knownDeviceId) };
  } catch (error) {
    throw AppError.fromStore(error);
  }
}
