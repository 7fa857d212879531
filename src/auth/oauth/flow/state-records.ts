/**
 * Single-use OAuth states, in key-value where they expire by themselves: nothing an anonymous
 * client does at /start grows the store beyond what the throttles allow in one lifetime. The raw
 * state travels only in the browser's URL; the store knows its SHA-256. `auth-oauth-state` holds
 * the record (provider, safe next path, expiry, SHA-256 of the browser binding) for twice the
 * state's lifetime (so a late callback is told "expired", not "unknown"); the callback that
 * consumes it first takes `auth-oauth-state-used` with an atomic increment (of two callbacks
 * racing on any number of hosts exactly one gets 1) and deletes the record. The used mark
 * outlives it, so a replay is told "reused" (409). The nonce and PKCE verifier are stored
 * nowhere: they are derived from the browser binding (./browser-binding.ts). A state started by
 * "Link <provider>" on the account page carries the link intent: the user id and the hash of the
 * session that asked (./link.ts).
 */
import * as v from 'valibot';
import { timingSafeEqual } from '../random-tokens.ts';
import { authNamespaces, type AuthDeps } from '../../application/index.ts';
import { AppError } from '../../../errors.ts';
import type { ProviderId } from '../provider-ids.ts';
import { OAuthSignInError } from './failures.ts';

/** How long a started sign-in may take at the provider. */
export const OAUTH_STATE_TTL_MS = 10 * 60 * 1000;
/** How long the store keeps a state record and its used mark. */
const KEPT_MS = BigInt(2 * OAUTH_STATE_TTL_MS);

export interface NewOAuthState {
  provider: ProviderId;
  stateHash: string;
  /** hex SHA-256 of the browser-binding cookie value */
  bindingHash: string;
  next: string;
  development: boolean;
  /** set when the flow links the identity to the signed-in account instead of signing in */
  link?: LinkIntent | undefined;
}

/** Who asked to link: the account and the session it was signed in with. */
export interface LinkIntent {
  userId: string;
  sessionHash: string;
}

export interface ConsumedOAuthState {
  next: string;
  development: boolean;
  link: LinkIntent | undefined;
}

/** The stored record (JSON in key-value), checked when read back. */
const Record = v.object({
  provider: v.string(),
  next: v.string(),
  /** epoch ms; the callback refuses the state after this */
  expires_at: v.number(),
  /** true when made by the development callback bypass (its callback needs no provider) */
  development: v.boolean(),
  binding_hash: v.string(),
  /** the link intent (absent on a sign-in) */
  link: v.optional(v.object({ user_id: v.string(), session_hash: v.string() })),
});

export function createOAuthState(deps: AuthDeps, input: NewOAuthState): void {
  const { platform } = deps;
  const record: v.InferOutput<typeof Record> = {
    provider: input.provider,
    next: input.next,
    expires_at: platform.now() + OAUTH_STATE_TTL_MS,
    development: input.development,
    binding_hash: input.bindingHash,
    ...(input.link ? { link: { user_id: input.link.userId, session_hash: input.link.sessionHash } } : {}),
  };
  try {
    platform.keyValue.set(authNamespaces.oauthStates, input.stateHash, JSON.stringify(record), KEPT_MS);
  } catch (error) {
    throw AppError.fromStore(error);
  }
}

function readRecord(deps: AuthDeps, stateHash: string): v.InferOutput<typeof Record> | undefined {
  const stored = deps.platform.keyValue.get(authNamespaces.oauthStates, stateHash);
  if (stored === undefined) return undefined;
  const parsed = v.safeParse(Record, JSON.parse(stored));
  return parsed.success ? parsed.output : undefined;
}

/**
 * Consumes the state for `provider`'s callback, or throws OAuthSignInError: unknown (never made,
 * tampered, or long gone), reused (409), another provider's, expired, or brought by another
 * browser (403, RFC 9700 §4.7). A state is only consumed by its own provider's callback, before
 * its expiry, in the browser that started it; every refusal leaves it as it was.
 */
export function consumeOAuthState(deps: AuthDeps, provider: ProviderId, stateHash: string, bindingHash: string | undefined): ConsumedOAuthState {
  const { keyValue } = deps.platform;
  try {
    const record = readRecord(deps, stateHash);
    if (!record) {
      if (keyValue.get(authNamespaces.oauthStatesUsed, stateHash) !== undefined) throw new OAuthSignInError('oauth_state_reused');
      throw new OAuthSignInError('oauth_state_unknown');
    }
    if (record.provider !== provider) throw new OAuthSignInError('oauth_provider_mismatch');
    if (deps.platform.now() > record.expires_at) throw new OAuthSignInError('oauth_state_expired');
    if (bindingHash === undefined) throw new OAuthSignInError('oauth_browser_mismatch', { detail: 'absent' });
    if (!timingSafeEqual(record.binding_hash, bindingHash)) throw new OAuthSignInError('oauth_browser_mismatch', { detail: 'different' });
    // Another callback (here or on another host) may have read it too: the first increment wins.
    if (keyValue.increment(authNamespaces.oauthStatesUsed, stateHash, 1n, KEPT_MS) !== 1n) throw new OAuthSignInError('oauth_state_reused');
    keyValue.delete(authNamespaces.oauthStates, stateHash);
    const link = record.link ? { userId: record.link.user_id, sessionHash: record.link.session_hash } : undefined;
    return { next: record.next, development: record.development, link };
  } catch (error) {
    throw AppError.fromStore(error);
  }
}
