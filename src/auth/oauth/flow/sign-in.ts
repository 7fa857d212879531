/**
 * The OAuth sign-in flow over the auth core: start (state → provider URL) and callback (state
 * consumed → code exchanged → identity linked → session issued). Both provider-agnostic: the
 * provider modules (../providers) do the protocol, this file the bookkeeping. With the development
 * callback bypass on, start sends the browser straight to our own callback with a development
 * code, and that callback signs in a fixed development identity without calling a provider.
 * Every sign-in is bound to the browser that started it (./browser-binding.ts, RFC 9700 §4.7).
 * A flow started by "Link <provider>" on the account page links the identity to that account
 * instead of signing in (./link.ts).
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
import { completeLink, linkingSession, LINK_DONE_PATH, type CallbackSession } from './link.ts';
import { consumeOAuthState, createOAuthState, type ConsumedOAuthState, type LinkIntent } from './state-records.ts';

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
 * has one (kept, so sign-ins started in two tabs both complete). `link`: the flow links the
 * identity to this signed-in account (./link.ts) and lands on the account page.
 */
export function startOAuthSignIn(
  deps: OAuthFlowDeps,
  provider: string,
  next: string | undefined,
  currentBinding: string | undefined,
  link?: LinkIntent,
): { location: string; setCookie: string } {
  const settings = offeredSettings(deps.config, provider);
  const safeNext = link ? LINK_DONE_PATH : safeNextPath(next);
  const binding = newBindingValue(currentBinding);
  const setCookie = bindingSetCookie(binding, deps.config.cookieSecure);
  const record = { provider: settings.id, bindingHash: bindingHash(binding), next: safeNext, link };
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
  kind: 'signed-in';
  userId: string;
  session: IssuedSession;
  next: string;
  /** true when this sign-in linked the identity for the first time */
  linked: boolean;
}

export interface CompletedLink {
  kind: 'linked';
  userId: string;
  next: string;
  /** true when the identity was linked to this account already */
  already: boolean;
}

/** What the callback request brings besides its parameters. */
export interface CallbackBrowser extends CallbackSession {
  /** the browser's binding cookie value (undefined when absent or malformed) */
  binding: string | undefined;
  /** labels a new session on the account page (domain/device-hint.ts) */
  device?: string | undefined;
}

/** The identity the provider vouches for (or the development identity), for a consumed state. */
async function callbackIdentity(
  deps: OAuthFlowDeps,
  settings: ProviderSettings,
  state: ConsumedOAuthState,
  params: { code: string; state: string; user: string | undefined },
  binding: string | undefined,
): Promise<ExternalIdentity> {
  if (state.development) {
    // Only a state made by the bypass, only while the bypass is on, and only with its code.
    if (!deps.config.developmentCallbackBypass || params.code !== DEVELOPMENT_CODE) throw new OAuthSignInError('oauth_token_exchange_failed', { detail: 'development_code' });
    return developmentIdentity(settings.id);
  }
  // consumeOAuthState checked that `binding` is the one the state was made with.
  const { nonce, codeVerifier } = flowSecrets(binding!, params.state);
  const provider = OAUTH_PROVIDERS[settings.id];
  try {
    return await provider.signIn(
      settings,
      { code: params.code, nonce, ...(provider.usesPkce ? { codeVerifier } : {}), ...(params.user ? { user: params.user } : {}) },
      deps.provider,
    );
  } catch (error) {
    throw signInFailure(error);
  }
}

/**
 * Callback: every failure throws (an AppError, mostly OAuthSignInError); no session and no link
 * unless all checks pass. A sign-in issues a session; a link (the state carries its intent) adds
 * the identity to the account whose session started it and issues nothing.
 */
export async function completeOAuthCallback(deps: OAuthFlowDeps, provider: string, params: CallbackParams, browser: CallbackBrowser): Promise<CompletedSignIn | CompletedLink> {
  const settings = offeredSettings(deps.config, provider);
  const { binding } = browser;
  const boundTo = binding === undefined ? undefined : bindingHash(binding);
  if (params.kind === 'malformed') throw new OAuthSignInError('oauth_callback_malformed');
  if (params.kind === 'provider_error') {
    // The attempt is over either way: burn its state so it cannot be completed later.
    if (params.state) consumeOAuthState(deps.auth, settings.id, hashState(params.state), boundTo);
    throw new OAuthSignInError('oauth_provider_error', { detail: params.error });
  }
  const state = consumeOAuthState(deps.auth, settings.id, hashState(params.state), boundTo);

  if (state.link) {
    // Checked before the provider is asked, and again after (the browser may sign out meanwhile).
    linkingSession(deps.auth, state.link, browser);
    const identity = await callbackIdentity(deps, settings, state, params, binding);
    const session = linkingSession(deps.auth, state.link, browser);
    const { already } = await completeLink(deps.auth, session, identity);
    return { kind: 'linked', userId: session.userId, next: state.next, already };
  }

  const identity = await callbackIdentity(deps, settings, state, params, binding);
  const account = await linkOrCreateUserForExternalIdentity(deps.auth, {
    provider: identity.provider,
    subject: identity.subject,
    email: identity.email ?? null,
    emailVerified: identity.emailVerified,
  });
  const session = await issueSession(deps.auth, { userId: account.userId, email: account.email, aal: 'aal1', method: `oauth:${settings.id}`, device: browser.device });
  return { kind: 'signed-in', userId: account.userId, session, next: state.next, linked: account.linked };
}
