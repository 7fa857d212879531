/** The three external providers, their environment-variable prefixes and callback paths. */

export const PROVIDER_IDS = ['provider_a', 'provider_b', 'provider_c'] as const;
export type ProviderId = (typeof PROVIDER_IDS)[number];

/** `AUTH_PROVIDER_A` … : every provider variable starts with this. */
export function envPrefix(id: ProviderId): string {
  return `AUTH_${id.toUpperCase()}`;
}

/** The path a provider redirects back to (spec: "Provider callback paths"). */
export function callbackPath(id: ProviderId): string {
  return `/api/auth/oauth/${id}/callback`;
}
