/**
 * Single-use OAuth states. The raw state travels only in the browser's URL; the store knows its
 * SHA-256. Stream `auth-oauth-state-<hash>`: `auth_oauth_state_created` (no-stream: provider, safe
 * next path, expiry) and at most one `auth_oauth_state_consumed`, appended with the exact revision
 * of the creation, so of two callbacks racing on any number of hosts exactly one wins. The nonce
 * and PKCE verifier are not events: they sit in key-value under the same hash with a TTL and are
 * taken (read and deleted atomically) by the winner, so they vanish after use or expiry.
 */
import type { OAuthStateConsumed, OAuthStateCreated } from '../../domain/events.ts';
import { authEvent, authNamespaces, authStoreFailure, authStreams, isConflict, payloadOf, runAuthProjectionQuietly, type AuthDeps } from '../../application/index.ts';
import type { ProviderId } from '../provider-ids.ts';
import { OAuthSignInError } from './failures.ts';

/** How long a started sign-in may take at the provider. */
export const OAUTH_STATE_TTL_MS = 10 * 60 * 1000;
/** The secrets outlive the event's expiry a little, so expiry is always decided by the event. */
const SECRETS_GRACE_MS = 60 * 1000;

export interface NewOAuthState {
  provider: ProviderId;
  stateHash: string;
  nonce: string;
  codeVerifier: string | undefined;
  next: string;
  development: boolean;
}

export interface ConsumedOAuthState {
  nonce: string;
  codeVerifier: string | undefined;
  next: string;
  development: boolean;
}

interface StateSecrets {
  nonce: string;
  code_verifier: string | null;
}

export function createOAuthState(deps: AuthDeps, input: NewOAuthState): void {
  const { platform } = deps;
  const now = platform.now();
  const created: OAuthStateCreated = { provider: input.provider, next: input.next, created_at: now, expires_at: now + OAUTH_STATE_TTL_MS, development: input.development };
  const secrets: StateSecrets = { nonce: input.nonce, code_verifier: input.codeVerifier ?? null };
  try {
    platform.keyValue.set(authNamespaces.oauthStateSecrets, input.stateHash, JSON.stringify(secrets), BigInt(OAUTH_STATE_TTL_MS + SECRETS_GRACE_MS));
    platform.events.append(authStreams.oauthState(input.stateHash), { tag: 'no-stream' }, [authEvent('auth_oauth_state_created', created)]);
  } catch (error) {
    throw authStoreFailure(error);
  }
  runAuthProjectionQuietly(platform);
}

/**
 * Consumes the state for `provider`'s callback, or throws OAuthSignInError: unknown (never made
 * or tampered), reused (409), another provider's, expired. A state is only consumed by its own
 * provider's callback before its expiry.
 */
export function consumeOAuthState(deps: AuthDeps, provider: ProviderId, stateHash: string): ConsumedOAuthState {
  const { platform } = deps;
  const stream = authStreams.oauthState(stateHash);
  try {
    const events = platform.events.readStream(stream, { direction: 'forward', limit: 4 });
    const first = events[0];
    if (!first || first.eventType !== 'auth_oauth_state_created') throw new OAuthSignInError('oauth_state_unknown');
    if (events.some((e) => e.eventType === 'auth_oauth_state_consumed')) throw new OAuthSignInError('oauth_state_reused');
    const created = payloadOf<OAuthStateCreated>(first);
    if (created.provider !== provider) throw new OAuthSignInError('oauth_provider_mismatch');
    const now = platform.now();
    if (now > created.expires_at) throw new OAuthSignInError('oauth_state_expired');

    const consumed: OAuthStateConsumed = { provider, consumed_at: now };
    try {
      platform.events.append(stream, { tag: 'exact', val: events.at(-1)!.revision }, [authEvent('auth_oauth_state_consumed', consumed)]);
    } catch (error) {
      // Another callback (here or on another host) consumed it between our read and append.
      if (isConflict(error)) throw new OAuthSignInError('oauth_state_reused');
      throw error;
    }
    runAuthProjectionQuietly(platform);
    const secrets = platform.keyValue.take(authNamespaces.oauthStateSecrets, stateHash);
    if (secrets === undefined) throw new OAuthSignInError('oauth_state_expired');
    const parsed = JSON.parse(secrets) as StateSecrets;
    return { nonce: parsed.nonce, codeVerifier: parsed.code_verifier ?? undefined, next: created.next, development: created.development };
  } catch (error) {
    throw authStoreFailure(error);
  }
}
