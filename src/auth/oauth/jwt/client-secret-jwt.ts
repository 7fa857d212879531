/**
 * provider_c's client secret: a short-lived ES256 JWT the service signs itself (header `kid`,
 * iss = team id, sub = client id, aud = the provider's issuer). Signed in pure JS (noble) because
 * `crypto.subtle` ECDSA traps inside the component; cached and re-signed before it expires.
 */
import { base64url } from 'jose';
import { signEs256 } from './ecdsa-p256.ts';
import { parseP256PrivateKey } from './p256-private-key.ts';

export interface ClientSecretJwtInput {
  teamId: string;
  keyId: string;
  clientId: string;
  /** The provider's issuer URL (the JWT's `aud`). */
  audience: string;
  /** PEM or escaped PEM, or the already-parsed 32-byte scalar. */
  privateKey: string | Uint8Array;
  /** milliseconds since the epoch (default `Date.now()`) */
  now?: number;
  /** seconds (default 300) */
  lifetimeSec?: number;
}

const DEFAULT_CLIENT_SECRET_LIFETIME_SEC = 300;
/** Re-sign when less than this is left, so a secret never expires during a token exchange. */
export const CLIENT_SECRET_REFRESH_MARGIN_SEC = 60;

const encoder = new TextEncoder();
const encodeJson = (value: object) => base64url.encode(encoder.encode(JSON.stringify(value)));

/** One freshly signed client-secret JWT. */
export function signClientSecretJwt(input: ClientSecretJwtInput): { jwt: string; expiresAt: number } {
  const secretKey = typeof input.privateKey === 'string' ? parseP256PrivateKey(input.privateKey) : input.privateKey;
  const iat = Math.floor((input.now ?? Date.now()) / 1000);
  const exp = iat + (input.lifetimeSec ?? DEFAULT_CLIENT_SECRET_LIFETIME_SEC);
  const signingInput = `${encodeJson({ alg: 'ES256', kid: input.keyId })}.${encodeJson({ iss: input.teamId, sub: input.clientId, aud: input.audience, iat, exp })}`;
  const signature = signEs256(secretKey, encoder.encode(signingInput));
  return { jwt: `${signingInput}.${base64url.encode(signature)}`, expiresAt: exp };
}

export interface ClientSecretSource {
  /** The current client secret, re-signed when it is within the refresh margin of expiry. */
  current(now?: number): string;
  /** `exp` (seconds) of the secret `current` last returned */
  expiresAt(): number;
}

/** A cached signer: parses the key once, signs on first use and again shortly before expiry. */
export function cachedClientSecretJwt(input: Omit<ClientSecretJwtInput, 'now'>): ClientSecretSource {
  const secretKey = typeof input.privateKey === 'string' ? parseP256PrivateKey(input.privateKey) : input.privateKey;
  const lifetime = input.lifetimeSec ?? DEFAULT_CLIENT_SECRET_LIFETIME_SEC;
  const margin = Math.min(CLIENT_SECRET_REFRESH_MARGIN_SEC, Math.floor(lifetime / 4));
  let cached: { jwt: string; expiresAt: number } | undefined;
  return {
    current(now = Date.now()) {
      const nowSec = Math.floor(now / 1000);
      if (!cached || cached.expiresAt - nowSec < margin) {
        cached = signClientSecretJwt({ ...input, privateKey: secretKey, now });
      }
      return cached.jwt;
    },
    expiresAt: () => cached?.expiresAt ?? 0,
  };
}
