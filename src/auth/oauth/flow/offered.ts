/** The OAuth providers to offer (capabilities, /login buttons): exactly those the configuration offers. */
import type { OfferedProvider } from '../../application/index.ts';
import type { OAuthConfig } from '../config.ts';
import type { ProviderId } from '../provider-ids.ts';

export const startPath = (id: string): string => `/api/auth/oauth/${id}/start`;
export const linkPath = (id: string): string => `/api/auth/oauth/${id}/link`;

/** Where a started flow sends the browser: the provider, or our own callback under the development bypass. */
function authorizationOrigin(config: OAuthConfig, id: ProviderId): string {
  const settings = config.providers[id].settings!;
  return new URL(config.developmentCallbackBypass ? settings.redirectUri : settings.endpoints.authorizationUrl).origin;
}

export function offeredProviders(config: OAuthConfig): OfferedProvider[] {
  return config.offered.map((id) => ({
    id,
    label: config.providers[id].label,
    startPath: startPath(id),
    linkPath: linkPath(id),
    authorizationOrigin: authorizationOrigin(config, id),
  }));
}
