/**
 * The WebAuthn user handle of an account (§5.4.3 `user.id`, §14.6.1: no personal data): the
 * UTF-8 bytes of the random user id, base64url. An assertion's `userHandle` must name the owner
 * of the credential it was made with (§7.2 step 6).
 */
import { base64url } from '../application/secrets.ts';

export function userHandleOf(userId: string): string {
  return base64url(new TextEncoder().encode(userId));
}
