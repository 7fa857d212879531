/**
 * How a session was signed in, in words for the account page instead of the stored `method`
 * (`password`, `oauth:<id>`) and assurance level (`aal1`/`aal2`, NIST SP 800-63B §4): two factors
 * only come from a passkey, one factor is the password or the provider's sign-in.
 */
import type { AssuranceLevel } from '../domain/events.ts';

/** `label`: a provider's configured label from its id. Never the stored name itself. */
export function signInWords(method: string, aal: AssuranceLevel, label: (providerId: string) => string): string {
  if (aal === 'aal2') return 'Passkey (two factors)';
  if (method === 'password') return 'Password';
  if (method === 'passkey') return 'Passkey';
  const provider = /^oauth:(.+)$/.exec(method)?.[1];
  return provider === undefined ? 'Another way' : label(provider);
}
