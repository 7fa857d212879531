/**
 * Provider JWKS documents, cached per URL for 10 minutes per guest instance. A token whose `kid`
 * is not in the cached set triggers one refetch (key rotation), at most once a minute per URL.
 */
import { decodeProtectedHeader } from 'jose';
import { fetchJson } from './http.ts';
import { jwksSchema, type JsonWebKeySet } from '../jwt/jwks.ts';
import type { ProviderDeps } from './types.ts';

const TTL_MS = 10 * 60_000;
const REFETCH_MIN_INTERVAL_MS = 60_000;

interface Entry {
  jwks: JsonWebKeySet;
  fetchedAt: number;
}

const cache = new Map<string, Entry>();

function hasKid(jwks: JsonWebKeySet, kid: unknown): boolean {
  return typeof kid !== 'string' || jwks.keys.some((k) => typeof k === 'object' && k !== null && (k as { kid?: unknown }).kid === kid);
}

/** The JWKS to verify `idToken` with: cached, or fetched when stale or missing the token's kid. */
export async function jwksFor(url: string, idToken: string, deps: ProviderDeps): Promise<JsonWebKeySet> {
  const now = deps.now();
  let kid: unknown;
  try {
    kid = decodeProtectedHeader(idToken).kid;
  } catch {
    kid = undefined; // malformed: verifyIdToken reports it
  }
  const entry = cache.get(url);
  const fresh = entry && now - entry.fetchedAt < TTL_MS;
  const mayRefetch = !entry || now - entry.fetchedAt >= REFETCH_MIN_INTERVAL_MS;
  if (entry && fresh && (hasKid(entry.jwks, kid) || !mayRefetch)) return entry.jwks;
  const jwks = await fetchJson(deps, 'jwks_failed', url, { method: 'GET' }, jwksSchema);
  cache.set(url, { jwks, fetchedAt: now });
  return jwks;
}

/** Forget cached key sets (tests). */
export function clearJwksCache(): void {
  cache.clear();
}
