/**
 * The client secret sent to the token endpoint: the configured secret (provider_a, provider_b),
 * the pre-generated JWT, or a JWT this guest instance signs and caches (provider_c).
 */
import type { ProviderSettings } from '../config.ts';
import { cachedClientSecretJwt, type ClientSecretSource } from '../jwt/client-secret-jwt.ts';

/** One signer per (team, key, client, audience) per guest instance: the key is parsed once. */
const signers = new Map<string, ClientSecretSource>();

export function clientSecretFor(settings: ProviderSettings, now: number): string {
  const auth = settings.clientAuthentication;
  if (auth.kind !== 'signed_jwt') return auth.secret;
  const audience = settings.endpoints.issuer ?? '';
  const key = JSON.stringify([auth.teamId, auth.keyId, settings.clientId, audience, auth.privateKeyPem.length]);
  let signer = signers.get(key);
  if (!signer) {
    signer = cachedClientSecretJwt({ teamId: auth.teamId, keyId: auth.keyId, clientId: settings.clientId, audience, privateKey: auth.privateKeyPem });
    signers.set(key, signer);
  }
  return signer.current(now);
}
