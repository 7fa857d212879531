/**
 * Accounts by email: the stream `auth-email-<sha256(normalized email)>` is created with
 * no-stream by the registration that claims the email, so an email belongs to one account even
 * with many hosts on one store. Its first event says who owns it and, for password accounts,
 * holds the password hash. A password registration proves nothing about the email (there is no
 * mail here), so only a claim made by a provider's verified email counts as verified.
 */
import type { Platform } from '../../platform/ports.ts';
import type { ExternalUserRegistered, PasswordUserRegistered } from '../domain/events.ts';
import { payloadOf } from './event-codec.ts';
import { AppError } from '../../errors.ts';
import { authStreams } from './streams.ts';

export interface Account {
  userId: string;
  email: string;
  /** Absent for accounts created by an external sign-in. */
  passwordHash: string | undefined;
  /**
   * true only when the claim came from a provider that verified the email. A password
   * registration never verifies it: whoever registered first may not own the mailbox.
   */
  emailVerified: boolean;
}

export function findAccountByEmailHash(platform: Platform, emailHash: string): Account | undefined {
  let first;
  try {
    first = platform.events.readStream(authStreams.email(emailHash), { direction: 'forward', limit: 1 })[0];
  } catch (error) {
    throw AppError.fromStore(error);
  }
  if (!first) return undefined;
  if (first.eventType === 'auth_password_user_registered') {
    const data = payloadOf<PasswordUserRegistered>(first);
    return { userId: data.user_id, email: data.email, passwordHash: data.password_hash, emailVerified: false };
  }
  const data = payloadOf<ExternalUserRegistered>(first);
  return { userId: data.user_id, email: data.email ?? '', passwordHash: undefined, emailVerified: data.email !== null };
}
