/**
 * The provider half of the start step: fresh state, nonce and PKCE verifier, and the external
 * authorization URL. The caller stores `stateHash` with the nonce, verifier, provider and safe
 * next path (single use, ~10 minutes) and redirects the browser to `url`.
 */
import type { ProviderSettings } from './config.ts';
import { OAUTH_PROVIDERS } from './providers/index.ts';
import { codeChallengeS256, generateCodeVerifier, generateNonce, generateState, hashState } from './random-tokens.ts';

export interface PreparedAuthorization {
  url: string;
  /** raw state: only in the URL, never stored */
  state: string;
  stateHash: string;
  nonce: string;
  /** present for providers with PKCE */
  codeVerifier: string | undefined;
  responseMode: 'query' | 'form_post';
}

export function prepareAuthorization(settings: ProviderSettings): PreparedAuthorization {
  const provider = OAUTH_PROVIDERS[settings.id];
  const state = generateState();
  const nonce = generateNonce();
  const codeVerifier = provider.usesPkce ? generateCodeVerifier() : undefined;
  const url = provider.authorizationUrl(settings, { state, nonce, ...(codeVerifier ? { codeChallenge: codeChallengeS256(codeVerifier) } : {}) });
  return { url, state, stateHash: hashState(state), nonce, codeVerifier, responseMode: provider.responseMode(settings) };
}
