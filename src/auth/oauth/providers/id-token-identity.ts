/**
 * Shared by the OIDC providers (provider_a, provider_c): exchange the code, fetch the JWKS,
 * verify the ID token (pure JS, see ../jwt) and read the identity from its claims.
 */
import type { ProviderSettings } from '../config.ts';
import { OAuthError } from '../errors.ts';
import type { IdTokenAlg } from '../jwt/jwks.ts';
import { verifyIdToken, type IdTokenClaims } from '../jwt/verify-id-token.ts';
import { jwksFor } from './jwks-cache.ts';
import { exchangeCode } from './token-exchange.ts';
import type { CallbackInput, ProviderDeps } from './types.ts';

const ID_TOKEN_CLOCK_TOLERANCE_SEC = 60;

export async function verifiedIdTokenClaims(settings: ProviderSettings, input: CallbackInput, deps: ProviderDeps, allowedAlgs: readonly IdTokenAlg[]): Promise<IdTokenClaims> {
  const { issuer, jwksUrl } = settings.endpoints;
  if (!issuer || !jwksUrl) throw new OAuthError('id_token_invalid', 'issuer');
  const tokens = await exchangeCode(settings, input, deps);
  if (!tokens.id_token) throw new OAuthError('token_exchange_failed', 'response_shape');
  const jwks = await jwksFor(jwksUrl, tokens.id_token, deps);
  return verifyIdToken(tokens.id_token, {
    jwks,
    issuer,
    audience: settings.clientId,
    nonce: input.nonce,
    allowedAlgs,
    now: deps.now(),
    clockToleranceSec: ID_TOKEN_CLOCK_TOLERANCE_SEC,
  });
}

/** `email_verified` as a boolean: some providers send the string "true". */
export function emailVerifiedClaim(value: unknown): boolean {
  return value === true || value === 'true';
}

export function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}
