/**
 * Password registration: normalize the email, apply the password policy (which answers the
 * password's NFKC form), hash that on the host, then claim the email stream with no-stream
 * (`auth_password_user_registered`), or over a claim that counts for nobody (claim-takeover.ts). A
 * lost claim means the email is taken: nothing is written and the caller learns nothing (OWASP Authentication Cheat
 * Sheet, "Account enumeration"): the route answers both outcomes alike and never signs in, and
 * the password is hashed before the claim on both paths, so the two cost the same. A created
 * account is mailed a verification link once the response is sent, the owner of a taken address
 * a mail that they already have an account (email-verification.ts).
 */
import { normalizeEmail } from '../domain/email.ts';
import type { PasswordUserRegistered } from '../domain/events.ts';
import { checkPassword } from '../domain/password-policy.ts';
import type { AuthDeps } from './deps.ts';
import { mailAccountExistsAfterResponse, mailVerificationAfterResponse } from './email-verification.ts';
import { authEvent } from './event-codec.ts';
import { prepareMailLink } from './mail-links.ts';
import { projectAfterResponse } from './projection.ts';
import { sha256Hex } from './secrets.ts';
import type { IssuedSession } from './sessions.ts';
import { AppError } from '../../errors.ts';
import { claimAddress, type ClaimOutcome } from './claim-takeover.ts';

export interface Credentials {
  email: string;
  password: string;
}

/** Who is signing in, as far as the request tells: the client address and a device hint. */
export interface SignInContext {
  client: string;
  device: string;
  /** the device cookie the browser sent (device-cookie.ts), if any */
  deviceCookie?: string | undefined;
}

export const UNKNOWN_CLIENT: SignInContext = { client: 'unknown', device: 'Unknown device' };

export interface SignedIn {
  userId: string;
  email: string;
  session: IssuedSession;
  /** Set-Cookie of the account's device cookie (device-cookie.ts), for password sign-ins */
  deviceCookie?: string;
}

/** What registration did; only the log may tell the two apart, never the response. */
export type Registration = { created: true; userId: string } | { created: false };

/** `client` made the request: the verification mail spends its mail budget (mail-budget.ts). */
export async function registerWithPassword(deps: AuthDeps, input: Credentials, client: string = UNKNOWN_CLIENT.client): Promise<Registration> {
  const email = normalizeEmail(input.email);
  const password = checkPassword(input.password, deps.config.passwordMinLength);
  const emailHash = await sha256Hex(email);
  const userId = crypto.randomUUID();
  let passwordHash: string;
  try {
    passwordHash = deps.platform.passwords.hash(password);
  } catch (error) {
    throw AppError.fromStore(error);
  }
  // Made on both paths, so a free and a taken address cost the same.
  const link = deps.config.mail ? prepareMailLink() : undefined;
  const data: PasswordUserRegistered = { user_id: userId, email, password_hash: passwordHash };
  let outcome: ClaimOutcome;
  try {
    outcome = claimAddress(deps, emailHash, userId, authEvent('auth_password_user_registered', data));
  } catch (error) {
    throw AppError.fromStore(error);
  }
  if (outcome === 'taken') {
    // The owner hears of it by mail; the caller learns nothing.
    mailAccountExistsAfterResponse(deps, emailHash, client);
    return { created: false };
  }
  projectAfterResponse(deps.platform);
  if (link) mailVerificationAfterResponse(deps, userId, emailHash, link, client);
  return { created: true, userId };
}
