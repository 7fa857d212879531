/**
 * The client secret sent to the token endpoint: the configured secret (provider_a, provider_b),
 * the pre-generated JWT, or a JWT signed here (provider_c), cached per guest instance and, when
 * the caller passes a shared `secretCache`, across instances.
 */
import { sha256Hex } from '../random-tokens.ts';
import type { ProviderSettings } from '../config.ts';
import { CLIENT_SECRET_REFRESH_MARGIN_SEC, cachedClientSecretJwt, type ClientSecretSource } from '../jwt/client-secret-jwt.ts';
import type { SecretCache } from './types.ts';

/** One signer per (team, key, client, audience) per guest instance: the key is parsed once. */
const signers = new Map<string, ClientSecretSource>();

export function clientSecretFor(settings: ProviderSettings, now: number, shared?: SecretCache): string {
  const auth = settings.clientAuthentication;
  if (auth.kind !== 'signed_jwt') return auth.secret;
  const audience = settings.endpoints.issuer ?? '';
  // A digest of the key (never the key) in the cache key: a replaced key gets a fresh secret.
  const keyDigest = sha256Hex(auth.privateKeyPem).slice(0, 16);
  const cacheKey = `oauth-client-secret:${settings.id}:${auth.teamId}:${auth.keyId}:${settings.clientId}:${audience}:${keyDigest}`;
  const cached = shared?.get(cacheKey);
  if (cached) return cached;
  let signer = signers.get(cacheKey);
  if (!signer) {
    signer = cachedClientSecretJwt({ teamId: auth.teamId, keyId: auth.keyId, clientId: settings.clientId, audience, privateKey: auth.privateKeyPem });
    signers.set(cacheKey, signer);
  }
  const secret = signer.current(now);
  // Shared until the refresh margin before its expiry, so no instance sends an almost-expired secret.
  const ttlMs = (signer.expiresAt() - Math.floor(now / 1000) - CLIENT_SECRET_REFRESH_MARGIN_SEC) * 1000;
  if (shared && ttlMs > 0) shared.set(cacheKey, secret, ttlMs);
  return secret;
}
