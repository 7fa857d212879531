/**
 * provider_c: OIDC whose client secret is an ES256 JWT (signed here or pre-generated, see
 * ../jwt/client-secret-jwt.ts). When it asks for name or email it answers with a form post
 * (`response_mode=form_post`), and sends the name only then, in the `user` form field; the email
 * always comes from the verified ID token. No PKCE (the provider does not document it).
 */
import * as v from 'valibot';
import { buildAuthorizationUrl } from './authorization-url.ts';
import { emailVerifiedClaim, optionalString, verifiedIdTokenClaims } from './id-token-identity.ts';
import type { OAuthProvider } from './types.ts';

const userFieldSchema = v.object({ name: v.optional(v.object({ firstName: v.optional(v.string()), lastName: v.optional(v.string()) })) });

/** The display name from the first-sign-in `user` field, if it is well-formed. */
export function nameFromUserField(user: string | undefined): string | undefined {
  if (!user) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(user);
  } catch {
    return undefined;
  }
  const parsed = v.safeParse(userFieldSchema, json);
  if (!parsed.success || !parsed.output.name) return undefined;
  return optionalString([parsed.output.name.firstName, parsed.output.name.lastName].filter(Boolean).join(' '));
}

const asksForProfile = (scopes: readonly string[]) => scopes.includes('name') || scopes.includes('email');

export const providerC: OAuthProvider = {
  id: 'provider_c',
  usesPkce: false,
  responseMode: (settings) => (asksForProfile(settings.scopes) ? 'form_post' : 'query'),
  authorizationUrl: (settings, request) => buildAuthorizationUrl(settings, request, { pkce: false, extra: asksForProfile(settings.scopes) ? { response_mode: 'form_post' } : {} }),
  async signIn(settings, input, deps) {
    const claims = await verifiedIdTokenClaims(settings, input, deps, ['RS256', 'ES256']);
    return {
      provider: 'provider_c',
      subject: claims.sub,
      email: optionalString(claims.email),
      emailVerified: emailVerifiedClaim(claims.email_verified),
      name: nameFromUserField(input.user) ?? optionalString(claims.name),
    };
  },
};
