/**
 * provider_b: a social-login OAuth 2.0 provider without ID tokens. Authorization code with PKCE;
 * the profile (id, name, email) comes from the user-info endpoint with the access token.
 * Its email counts as verified only when the profile says so (`email_verified: true`).
 */
import * as v from 'valibot';
import { OAuthError } from '../errors.ts';
import { buildAuthorizationUrl } from './authorization-url.ts';
import { fetchJson } from './http.ts';
import { emailVerifiedClaim, optionalString } from './id-token-identity.ts';
import { exchangeCode } from './token-exchange.ts';
import type { OAuthProvider } from './types.ts';

const profileSchema = v.looseObject({
  id: v.union([v.pipe(v.string(), v.minLength(1)), v.pipe(v.number(), v.integer())]),
  name: v.optional(v.unknown()),
  email: v.optional(v.unknown()),
  email_verified: v.optional(v.unknown()),
});

export const providerB: OAuthProvider = {
  id: 'provider_b',
  usesPkce: true,
  responseMode: () => 'query',
  authorizationUrl: (settings, request) => buildAuthorizationUrl(settings, request, { pkce: true }),
  async signIn(settings, input, deps) {
    const userInfoUrl = settings.endpoints.userInfoUrl;
    if (!userInfoUrl) throw new OAuthError('profile_failed', 'response_shape');
    const tokens = await exchangeCode(settings, input, deps);
    const profile = await fetchJson(deps, 'profile_failed', userInfoUrl, { method: 'GET', headers: { authorization: `Bearer ${tokens.access_token}` } }, profileSchema);
    return {
      provider: 'provider_b',
      subject: String(profile.id),
      email: optionalString(profile.email),
      emailVerified: emailVerifiedClaim(profile.email_verified),
      name: optionalString(profile.name),
    };
  },
};
