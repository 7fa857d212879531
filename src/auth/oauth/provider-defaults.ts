/**
 * Default endpoints and scopes of the real providers, used when no override variable is set.
 * `.env.example` lists the same values (a unit test keeps them equal).
 */
import type { ProviderId } from './provider-ids.ts';

export interface ProviderDefaults {
  scopes: string;
  authorizationUrl: string;
  tokenUrl: string;
  /** OIDC providers (ID token): issuer and JWKS */
  issuer?: string;
  jwksUrl?: string;
  /** profile from a user-info endpoint (provider_b) */
  userInfoUrl?: string;
}

export const PROVIDER_DEFAULTS: Record<ProviderId, ProviderDefaults> = {
  provider_a: {
    scopes: 'openid email profile',
    authorizationUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
    tokenUrl: 'https://oauth2.googleapis.com/token',
    issuer: 'https://accounts.google.com',
    jwksUrl: 'https://www.googleapis.com/oauth2/v3/certs',
  },
  provider_b: {
    scopes: 'email public_profile',
    authorizationUrl: 'https://www.facebook.com/v21.0/dialog/oauth',
    tokenUrl: 'https://graph.facebook.com/v21.0/oauth/access_token',
    userInfoUrl: 'https://graph.facebook.com/v21.0/me?fields=id,name,email',
  },
  provider_c: {
    scopes: 'name email',
    authorizationUrl: 'https://appleid.apple.com/auth/authorize',
    tokenUrl: 'https://appleid.apple.com/auth/token',
    issuer: 'https://appleid.apple.com',
    jwksUrl: 'https://appleid.apple.com/auth/keys',
  },
};
