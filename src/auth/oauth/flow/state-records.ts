/**
 * Single-use OAuth states. The raw state travels only in the browser's URL; the store knows its
 * SHA-256. Stream `auth-oauth-state-<hash>`: `auth_oauth_state_created` (no-stream: provider, safe
 * next path, expiry, SHA-256 of the browser binding) and at most one `auth_oauth_state_consumed`,
 * appended with the exact revision of the creation, so of two callbacks racing on any number of
 * hosts exactly one wins. The nonce and PKCE verifier are stored nowhere: they are derived from
 * the browser binding (./browser-binding.ts).
 */
import type { OAuthStateConsumed, OAuthStateCreated } from '../../domain/events.ts';
import { timingSafeEqual } from '../random-tokens.ts';
import { authEvent, authStoreFailure, authStreams, isConflict, payloadOf, runAuthProjectionQuietly, type AuthDeps } from '../../application/index.ts';
import type { ProviderId } from '../provider-ids.ts';
import { OAuthSignInError } from './failures.ts';

/** How long a started sign-in may take at the provider. */
export const OAUTH_STATE_TTL_MS = 10 * 60 * 1000;

export interface NewOAuthState {
  provider: ProviderId;
  stateHash: string;
  /** hex SHA-256 of the browser-binding cookie value */
  bindingHash: string;
  next: string;
  development: boolean;
}

export interface ConsumedOAuthState {
  next: string;
  development: boolean;
}

export function createOAuthState(deps: AuthDeps, input: NewOAuthState): void {
  const { platform } = deps;
  const now = platform.now();
  const created: OAuthStateCreated = {
    provider: input.provider,
    next: input.next,
    created_at: now,
    expires_at: now + OAUTH_STATE_TTL_MS,
    development: input.development,
    binding_hash: input.bindingHash,
  };
  try {
    platform.events.append(authStreams.oauthState(input.stateHash), { tag: 'no-stream' }, [authEvent('auth_oauth_state_created', created)]);
  } catch (error) {
    throw authStoreFailure(error);
  }
  runAuthProjectionQuietly(platform);
}

/**
 * Consumes the state for `provider`'s callback, or throws OAuthSignInError: unknown (never made
 * or tampered), reused (409), another provider's, expired, or brought by another browser (403,
 * RFC 9700 §4.7). A state is only consumed by its own provider's callback, before its expiry, in
 * the browser that started it; every refusal leaves it as it was.
 */
export function consumeOAuthState(deps: AuthDeps, provider: ProviderId, stateHash: string, bindingHash: string | undefined): ConsumedOAuthState {
  const { platform } = deps;
  const stream = authStreams.oauthState(stateHash);
  try {
    const events = platform.events.readStream(stream, { direction: 'forward', limit: 4 });
    const first = events[0];
    if (first?.eventType !== 'auth_oauth_state_created') throw new OAuthSignInError('oauth_state_unknown');
    if (events.some((e) => e.eventType === 'auth_oauth_state_consumed')) throw new OAuthSignInError('oauth_state_reused');
    const created = payloadOf<OAuthStateCreated>(first);
    if (created.provider !== provider) throw new OAuthSignInError('oauth_provider_mismatch');
    const now = platform.now();
    if (now > created.expires_at) throw new OAuthSignInError('oauth_state_expired');
    // A state created before browser binding existed has no hash: it is refused like a mismatch.
    if (bindingHash === undefined) throw new OAuthSignInError('oauth_browser_mismatch', { detail: 'absent' });
    if (!created.binding_hash || !timingSafeEqual(created.binding_hash, bindingHash)) throw new OAuthSignInError('oauth_browser_mismatch', { detail: 'different' });

    const consumed: OAuthStateConsumed = { provider, consumed_at: now };
    try {
      platform.events.append(stream, { tag: 'exact', val: events.at(-1)!.revision }, [authEvent('auth_oauth_state_consumed', consumed)]);
    } catch (error) {
      // Another callback (here or on another host) consumed it between our read and append.
      if (isConflict(error)) throw new OAuthSignInError('oauth_state_reused');
      throw error;
    }
    runAuthProjectionQuietly(platform);
    return { next: created.next, development: created.development };
  } catch (error) {
    throw authStoreFailure(error);
  }
}
