/** The OAuth providers to offer (capabilities, /login buttons): exactly those the configuration offers. */
import type { OfferedProvider } from '../../application/index.ts';
import type { OAuthConfig } from '../config.ts';

export const startPath = (id: string): string => `/api/auth/oauth/${id}/start`;
export const linkPath = (id: string): string => `/api/auth/oauth/${id}/link`;

export function offeredProviders(config: OAuthConfig): OfferedProvider[] {
  return config.offered.map((id) => ({ id, label: config.providers[id].label, startPath: startPath(id), linkPath: linkPath(id) }));
}
