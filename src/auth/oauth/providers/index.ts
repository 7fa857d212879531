/** The provider table: one module per provider, looked up by id. */
import type { ProviderId } from '../provider-ids.ts';
import { providerA } from './provider-a.ts';
import { providerB } from './provider-b.ts';
import { providerC } from './provider-c.ts';
import type { OAuthProvider } from './types.ts';

export const OAUTH_PROVIDERS: Readonly<Record<ProviderId, OAuthProvider>> = {
  provider_a: providerA,
  provider_b: providerB,
  provider_c: providerC,
};

export type { AuthorizationRequest, CallbackInput, ExternalIdentity, OAuthProvider, ProviderDeps } from './types.ts';
export { defaultDeps } from './types.ts';
