/**
 * The relying party the passkeys belong to (WebAuthn Level 3 §4 "RP ID", §13.4.9 "Validating
 * the origin"): its ID is the host of AUTH_PUBLIC_BASE_URL and the only origin accepted is that
 * URL's origin. Never taken from the request's Host, which a client chooses. Without
 * AUTH_PUBLIC_BASE_URL there is no relying party and passkeys are not offered; nor with an IP
 * address for its host, which browsers refuse as an RP ID (it must be a domain).
 */
import { AppError } from '../../errors.ts';
import type { AuthConfig } from '../config.ts';

export interface RelyingParty {
  id: string;
  origin: string;
  name: string;
}

const RP_NAME = 'Counter';

export function relyingParty(config: AuthConfig): RelyingParty | undefined {
  if (config.publicOrigin === undefined) return undefined;
  const host = new URL(config.publicOrigin).hostname;
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.startsWith('[')) return undefined;
  return { id: host, origin: config.publicOrigin, name: RP_NAME };
}

/** The relying party, or 404 `not_found` when passkeys are not offered. */
export function requireRelyingParty(config: AuthConfig): RelyingParty {
  const rp = relyingParty(config);
  if (!rp) throw new AppError('not_found', 'passkeys are not offered: AUTH_PUBLIC_BASE_URL is not set or names an IP address');
  return rp;
}
