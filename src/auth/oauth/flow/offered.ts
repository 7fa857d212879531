/** The OAuth providers to offer (capabilities, /login buttons): exactly those the configuration offers. */
import type { OfferedProvider } from '../../application/index.ts';
import type { OAuthConfig } from '../config.ts';
import type { ProviderId } from '../provider-ids.ts';

const LABELS: Record<ProviderId, string> = { provider_a: 'Provider A', provider_b: 'Provider B', provider_c: 'Provider C' };

export const startPath = (id: string): string => `/api/auth/oauth/${id}/start`;

export function offeredProviders(config: OAuthConfig): OfferedProvider[] {
  return config.offered.map((id) => ({ id, label: LABELS[id], startPath: startPath(id) }));
}
