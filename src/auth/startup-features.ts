/**
 * What the auth service has on, and why a feature is off, in words for the host's start-up line
 * (host/guest/startup-probe.ts): mail, passkeys and each OAuth provider. Names variables, never
 * their values (the public base and the RP ID are public anyway: they are in every page).
 */
import type { StartupFeature } from '../contract/startup-probe.ts';
import type { AuthService } from './index.ts';
import { envPrefix, PROVIDER_IDS } from './oauth/provider-ids.ts';
import { relyingParty } from './passkeys/relying-party.ts';

const BASE_UNSET = 'off (AUTH_PUBLIC_BASE_URL is not set)';

export function startupFeatures(service: AuthService): StartupFeature[] {
  const { config, oauth } = service;
  const rp = relyingParty(config);
  const passkeys = rp
    ? `on (RP ID ${rp.id})`
    : config.publicOrigin === undefined
      ? BASE_UNSET
      : 'off (AUTH_PUBLIC_BASE_URL names an IP address; browsers accept only a domain name as RP ID)';
  const providers = PROVIDER_IDS.map((id): StartupFeature => {
    const status = oauth.providers[id];
    const state = status.offered
      ? `on ("Continue with ${status.label}")`
      : !oauth.enabled
        ? 'off (AUTH_ENABLE_OAUTH is not true)'
        : !status.enabled
          ? `off (${envPrefix(id)}_ENABLED is not true)`
          : `off (missing ${status.missing.join(', ')})`;
    return { name: id, state };
  });
  return [
    { name: 'public base', state: config.publicOrigin ?? 'unset' },
    { name: 'mail', state: config.mail ? 'on' : BASE_UNSET },
    { name: 'passkeys', state: passkeys },
    ...providers,
  ];
}
