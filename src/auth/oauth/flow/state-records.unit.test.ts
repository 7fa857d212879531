import { describe, expect, it } from 'vitest';
import { createMemoryPlatform } from '../../../platform/testing/memory-platform.ts';
import type { AuthDeps } from '../../application/index.ts';
import { parseAuthConfig } from '../../config.ts';
import { OAuthSignInError } from './failures.ts';
import { consumeOAuthState, createOAuthState, OAUTH_STATE_TTL_MS } from './state-records.ts';

function setup() {
  const platform = createMemoryPlatform();
  const deps: AuthDeps = { platform, config: parseAuthConfig(new Map()) };
  createOAuthState(deps, { provider: 'provider_a', stateHash: 'h1', bindingHash: 'b1', next: '/dashboard', development: false });
  return { platform, deps };
}

const reasonOf = (run: () => unknown): string | undefined => {
  try {
    run();
  } catch (error) {
    return error instanceof OAuthSignInError ? error.reason : `not an OAuthSignInError: ${String(error)}`;
  }
  return undefined;
};

describe('OAuth state records', () => {
  it('live in key-value with a TTL, write no event, and are consumed once by their provider in their browser', () => {
    const { platform, deps } = setup();
    expect(JSON.parse(platform.keyValue.get('auth-oauth-state', 'h1')!)).toEqual({
      provider: 'provider_a',
      next: '/dashboard',
      expires_at: expect.any(Number),
      development: false,
      binding_hash: 'b1',
    });
    expect(platform.events.headSequence()).toBe(0n);
    expect(consumeOAuthState(deps, 'provider_a', 'h1', 'b1')).toEqual({ next: '/dashboard', development: false });
    expect(reasonOf(() => consumeOAuthState(deps, 'provider_a', 'h1', 'b1'))).toBe('oauth_state_reused');
    // Deleted on use; nothing in the event store either way.
    expect(platform.keyValue.get('auth-oauth-state', 'h1')).toBeUndefined();
    expect(platform.events.headSequence()).toBe(0n);
  });

  it('carry a link intent (the account and the session that asked) to the callback', () => {
    const { deps } = setup();
    const link = { userId: 'user-1', sessionHash: 's'.repeat(64) };
    createOAuthState(deps, { provider: 'provider_b', stateHash: 'h3', bindingHash: 'b1', next: '/dashboard?notice=provider_linked', development: false, link });
    expect(consumeOAuthState(deps, 'provider_b', 'h3', 'b1')).toEqual({ next: '/dashboard?notice=provider_linked', development: false, link });
    expect(consumeOAuthState(deps, 'provider_a', 'h1', 'b1').link).toBeUndefined();
  });

  it('expire by themselves: the record and its used mark are gone after twice the lifetime', () => {
    const { platform, deps } = setup();
    createOAuthState(deps, { provider: 'provider_a', stateHash: 'h2', bindingHash: 'b1', next: '/', development: false });
    consumeOAuthState(deps, 'provider_a', 'h2', 'b1');
    platform.clock.advance(2 * OAUTH_STATE_TTL_MS + 1);
    for (const [namespace, key] of [
      ['auth-oauth-state', 'h1'],
      ['auth-oauth-state-used', 'h2'],
    ] as const)
      expect(platform.keyValue.get(namespace, key)).toBeUndefined();
    expect(reasonOf(() => consumeOAuthState(deps, 'provider_a', 'h1', 'b1'))).toBe('oauth_state_unknown');
  });

  it('unknown, another provider, expired', () => {
    const { platform, deps } = setup();
    expect(reasonOf(() => consumeOAuthState(deps, 'provider_a', 'nope', 'b1'))).toBe('oauth_state_unknown');
    expect(reasonOf(() => consumeOAuthState(deps, 'provider_b', 'h1', 'b1'))).toBe('oauth_provider_mismatch');
    platform.clock.advance(OAUTH_STATE_TTL_MS + 1);
    expect(reasonOf(() => consumeOAuthState(deps, 'provider_a', 'h1', 'b1'))).toBe('oauth_state_expired');
  });

  it('another browser (no binding, or a different one) is refused and consumes nothing (RFC 9700 §4.7)', () => {
    const { deps } = setup();
    expect(reasonOf(() => consumeOAuthState(deps, 'provider_a', 'h1', undefined))).toBe('oauth_browser_mismatch');
    expect(reasonOf(() => consumeOAuthState(deps, 'provider_a', 'h1', 'b2'))).toBe('oauth_browser_mismatch');
    expect(consumeOAuthState(deps, 'provider_a', 'h1', 'b1')).toEqual({ next: '/dashboard', development: false });
  });

  it('a consumption racing in between read and claim (another host) loses with oauth_state_reused', () => {
    const { platform, deps } = setup();
    platform.faults.beforeNext('increment', () => {
      platform.keyValue.increment('auth-oauth-state-used', 'h1', 1n, 1000n);
    });
    expect(reasonOf(() => consumeOAuthState(deps, 'provider_a', 'h1', 'b1'))).toBe('oauth_state_reused');
  });
});
