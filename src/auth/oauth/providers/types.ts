/** What every provider module offers the sign-in flow, and what it returns. */
import type { ProviderSettings } from '../config.ts';
import type { ProviderId } from '../provider-ids.ts';

/** The account at the provider, normalized across providers. */
export interface ExternalIdentity {
  provider: ProviderId;
  /** the provider's stable user id (`sub`, or provider_b's profile `id`) */
  subject: string;
  email: string | undefined;
  /** true only when the provider vouches for the email (linking to an existing account relies on it) */
  emailVerified: boolean;
  name: string | undefined;
}

export interface AuthorizationRequest {
  state: string;
  nonce: string;
  /** S256 challenge; ignored by providers without PKCE */
  codeChallenge?: string;
}

export interface CallbackInput {
  code: string;
  /** the nonce stored with the state */
  nonce: string;
  /** the PKCE verifier stored with the state (providers with PKCE) */
  codeVerifier?: string;
  /** provider_c's form-post `user` field (JSON with the name, sent on the first sign-in only) */
  user?: string;
}

/** Outgoing HTTP and time, injectable so tests can point at a local provider and move the clock. */
export interface ProviderDeps {
  fetch: typeof fetch;
  /** milliseconds since the epoch */
  now(): number;
  /**
   * Optional store shared by all guest instances (the WIT key-value) for provider_c's signed
   * client secret, so one instance signs and the others reuse it until shortly before expiry.
   */
  secretCache?: SecretCache;
}

export interface SecretCache {
  get(key: string): string | undefined;
  set(key: string, value: string, ttlMs: number): void;
}

export interface OAuthProvider {
  readonly id: ProviderId;
  /** sends an S256 code_challenge and expects the verifier at the token endpoint */
  readonly usesPkce: boolean;
  /** how the callback arrives: query string (GET) or form post (POST) */
  responseMode(settings: ProviderSettings): 'query' | 'form_post';
  /** the external authorization URL the browser is sent to */
  authorizationUrl(settings: ProviderSettings, request: AuthorizationRequest): string;
  /** exchanges the code and returns the verified external identity; throws OAuthError */
  signIn(settings: ProviderSettings, input: CallbackInput, deps: ProviderDeps): Promise<ExternalIdentity>;
}

export const defaultDeps: ProviderDeps = { fetch: (input, init) => fetch(input, init), now: () => Date.now() };
