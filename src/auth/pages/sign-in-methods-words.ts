/** What the "Sign-in methods" card says when a removal was refused (src/auth/rest/sign-in-method-routes.ts). */
import { tryAgainWords } from '../../text/wait-words.ts';
import type { ReturnedRefusal } from '../rest/form-return.ts';
import { freshSignInWords, lastWayInWords } from './sign-in-methods-card.tsx';

export function methodsErrorText(refusal: ReturnedRefusal, hasPassword: boolean, providersOffered: boolean, now: number): string {
  const fresh = freshSignInWords(providersOffered);
  switch (refusal.code) {
    case 'forbidden':
      return hasPassword
        ? `Nothing was removed: enter your password, or sign in with ${fresh} again first.`
        : `Nothing was removed: sign in with ${fresh} again first, then remove it within 5 minutes.`;
    case 'conflict':
      return `Nothing was removed. ${lastWayInWords(providersOffered)} (If you just added one, reload the page and try again.)`;
    case 'not_found':
      return 'Nothing was removed: that sign-in method is gone already. Reload the page.';
    case 'rate_limited':
      return `Nothing was removed: too many attempts. ${tryAgainWords(refusal.retryAt, now)}`;
    case 'invalid_credentials':
      return 'Nothing was removed: the password is not right.';
    default:
      return 'Nothing was removed. Try again.';
  }
}
