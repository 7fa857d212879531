/**
 * The OAuth sign-in flow over the auth core: start (state → provider URL) and callback (state
 * consumed → code exchanged → identity linked → session issued). Both provider-agnostic: the
 * provider modules (../providers) do the protocol, this file the bookkeeping. With the development
 * callback bypass on, start sends the browser straight to our own callback with a development
 * code, and that callback signs in a fixed development identity without calling a provider.
 * Every sign-in is bound to the browser that started it (./browser-binding.ts, RFC 9700 §4.7).
 */
import { issueSession, linkOrCreateUserForExternalIdentity, safeNextPath, type AuthDeps, type IssuedSession } from '../../application/index.ts';
import type { CallbackParams } from '../callback-params.ts';
import type { OAuthConfig, ProviderSettings } from '../config.ts';
import { prepareAuthorization } from '../prepare-authorization.ts';
import type { ProviderId } from '../provider-ids.ts';
import { OAUTH_PROVIDERS, type ExternalIdentity, type ProviderDeps } from '../providers/index.ts';
import { generateState, hashState } from '../random-tokens.ts';
import { bindingHash, bindingSetCookie, flowSecrets, newBindingValue } from './browser-binding.ts';
import { OAuthSignInError, signInFailure } from './failures.ts';
import { consumeOAuthState, createOAuthState } from './state-records.ts';

export interface OAuthFlowDeps {
  auth: AuthDeps;
  config: OAuthConfig;
  /** outgoing HTTP, clock and the shared client-secret cache for the provider modules */
  provider: ProviderDeps;
}

/** The code the development bypass puts in its callback URL (accepted only while the bypass is on). */
const DEVELOPMENT_CODE = 'development-callback-bypass';

/** Who the development bypass signs in (one identity per provider, one shared email). */
function developmentIdentity(provider: ProviderId): ExternalIdentity {
  return { provider, subject: 'development-user', email: 'oauth-developer@example.com', emailVerified: true, name: 'Development User' };
}

/** The provider's settings when it is offered (OAuth on, enabled, credentialed), else 404. */
function offeredSettings(config: OAuthConfig, provider: string): ProviderSettings {
  const status = (config.providers as Record<string, OAuthConfig['providers'][ProviderId] | undefined>)[provider];
  if (!config.enabled || !status?.offered || !status.settings) throw new OAuthSignInError('oauth_provider_not_offered');
  return status.settings;
}

/**
 * Start: records a fresh single-use state bound to this browser and returns where to send it,
 * with the binding cookie to set. `currentBinding`: the browser's binding cookie, when it already
 * has one (kept, so sign-ins started in two tabs both complete).
 */
export function startOAuthSignIn(deps: OAuthFlowDeps, provider: string, next: string | undefined, currentBinding: string | undefined): { location: string; setCookie: string } {
  const settings = offeredSettings(deps.config, provider);
  const safeNext = safeNextPath(next);
  const binding = newBindingValue(currentBinding);
  const setCookie = bindingSetCookie(binding, deps.config.cookieSecure);
  const record = { provider: settings.id, bindingHash: bindingHash(binding), next: safeNext };
  if (deps.config.developmentCallbackBypass) {
    const state = generateState();
    createOAuthState(deps.auth, { ...record, stateHash: hashState(state), development: true });
    const location = new URL(settings.redirectUri);
    location.searchParams.set('code', DEVELOPMENT_CODE);
    location.searchParams.set('state', state);
    return { location: location.href, setCookie };
  }
  const prepared = prepareAuthorization(settings, binding);
  createOAuthState(deps.auth, { ...record, stateHash: prepared.stateHash, development: false });
  return { location: prepared.url, setCookie };
}

export interface CompletedSignIn {
  userId: string;
  session: IssuedSession;
  next: string;
  /** true when this sign-in linked the identity for the first time */
  linked: boolean;
}

/**
 * Callback: every failure throws (an AppError, mostly OAuthSignInError); no session unless all
 * checks pass. `binding`: the browser's binding cookie value (undefined when absent or malformed).
 */
/** `device` labels the new session on the account page (domain/device-hint.ts). */
export async function completeOAuthSignIn(deps: OAuthFlowDeps, provider: string, params: CallbackParams, binding: string | undefined, device?: string): Promise<CompletedSignIn> {
  const settings = offeredSettings(deps.config, provider);
  const boundTo = binding === undefined ? undefined : bindingHash(binding);
  if (params.kind === 'malformed') throw new OAuthSignInError('oauth_callback_malformed');
  if (params.kind === 'provider_error') {
    // The attempt is over either way: burn its state so it cannot be completed later.
    if (params.state) consumeOAuthState(deps.auth, settings.id, hashState(params.state), boundTo);
    throw new OAuthSignInError('oauth_provider_error', { detail: params.error });
  }
  const state = consumeOAuthState(deps.auth, settings.id, hashState(params.state), boundTo);

  let identity: ExternalIdentity;
  if (state.development) {
    // Only a state made by the bypass, only while the bypass is on, and only with its code.
    if (!deps.config.developmentCallbackBypass || params.code !== DEVELOPMENT_CODE) throw new OAuthSignInError('oauth_token_exchange_failed', { detail: 'development_code' });
    identity = developmentIdentity(settings.id);
  } else {
    // consumeOAuthState checked that `binding` is the one the state was made with.
    const { nonce, codeVerifier } = flowSecrets(binding!, params.state);
    const provider = OAUTH_PROVIDERS[settings.id];
    try {
      identity = await provider.signIn(
        settings,
        { code: params.code, nonce, ...(provider.usesPkce ? { codeVerifier } : {}), ...(params.user ? { user: params.user } : {}) },
        deps.provider,
      );
    } catch (error) {
      throw signInFailure(error);
    }
  }

  const account = await linkOrCreateUserForExternalIdentity(deps.auth, {
    provider: identity.provider,
    subject: identity.subject,
    email: identity.email ?? null,
    emailVerified: identity.emailVerified,
  });
  const session = await issueSession(deps.auth, { userId: account.userId, email: account.email, aal: 'aal1', method: `oauth:${settings.id}`, device });
  return { userId: account.userId, session, next: state.next, linked: account.linked };
}
