/**
 * Providers switched on (AUTH_PROVIDER_<X>_ENABLED=true) that are nevertheless not offered, with
 * the names of the variables each lacks (never values): with OAuth on, a configuration error at
 * start (../index.ts), so a missing credential does not make a sign-in button disappear without a word.
 */
import type { OAuthConfig } from './config.ts';
import { PROVIDER_IDS, type ProviderId } from './provider-ids.ts';

export interface ProviderNotOffered {
  provider: ProviderId;
  /** Variable names the provider still needs. */
  missing: string[];
}

export function providersNotOffered(config: OAuthConfig): ProviderNotOffered[] {
  return PROVIDER_IDS.filter((id) => config.providers[id].enabled && !config.providers[id].offered).map((id) => ({
    provider: id,
    // With OAuth off, readProvider checks nothing else: the switch is what is missing.
    missing: config.enabled ? config.providers[id].missing : ['AUTH_ENABLE_OAUTH'],
  }));
}
