/**
 * The provider half of the start step: a fresh state, the nonce and PKCE verifier derived from
 * the browser binding and that state (flow/browser-binding.ts), and the external authorization
 * URL. The caller stores `stateHash` with the binding's hash, provider and safe next path (single
 * use, ~10 minutes) and redirects the browser to `url`.
 */
import type { ProviderSettings } from './config.ts';
import { OAUTH_PROVIDERS } from './providers/index.ts';
import { flowSecrets } from './flow/browser-binding.ts';
import { codeChallengeS256, generateState, hashState } from './random-tokens.ts';

export interface PreparedAuthorization {
  url: string;
  /** raw state: only in the URL, never stored */
  state: string;
  stateHash: string;
  /** derived, never stored (the callback derives them again) */
  nonce: string;
  /** present for providers with PKCE */
  codeVerifier: string | undefined;
  responseMode: 'query' | 'form_post';
}

/** `binding`: the browser-binding cookie value the nonce and verifier are derived from. */
export function prepareAuthorization(settings: ProviderSettings, binding: string): PreparedAuthorization {
  const provider = OAUTH_PROVIDERS[settings.id];
  const state = generateState();
  const { nonce, codeVerifier } = flowSecrets(binding, state);
  const pkce = provider.usesPkce ? codeVerifier : undefined;
  const url = provider.authorizationUrl(settings, { state, nonce, ...(pkce ? { codeChallenge: codeChallengeS256(pkce) } : {}) });
  return { url, state, stateHash: hashState(state), nonce, codeVerifier: pkce, responseMode: provider.responseMode(settings) };
}
