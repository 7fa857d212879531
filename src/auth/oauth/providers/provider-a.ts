/**
 * provider_a: an OpenID Connect web provider. Authorization code with PKCE (S256) and nonce; the
 * identity comes from the RS256 ID token verified against the provider's JWKS.
 */
import { buildAuthorizationUrl } from './authorization-url.ts';
import { emailVerifiedClaim, optionalString, verifiedIdTokenClaims } from './id-token-identity.ts';
import type { OAuthProvider } from './types.ts';

export const providerA: OAuthProvider = {
  id: 'provider_a',
  usesPkce: true,
  responseMode: () => 'query',
  authorizationUrl: (settings, request) => buildAuthorizationUrl(settings, request, { pkce: true }),
  async signIn(settings, input, deps) {
    const claims = await verifiedIdTokenClaims(settings, input, deps, ['RS256']);
    return {
      provider: 'provider_a',
      subject: claims.sub,
      email: optionalString(claims.email),
      emailVerified: emailVerifiedClaim(claims.email_verified),
      name: optionalString(claims.name),
    };
  },
};
