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
  it('consumed once by its provider in its browser: next comes back; no nonce or verifier is stored', () => {
    const { platform, deps } = setup();
    const created = platform.events.readStream('auth-oauth-state-h1', { direction: 'forward', limit: 1 })[0]!;
    expect(JSON.parse(created.payload)).toEqual({
      provider: 'provider_a',
      next: '/dashboard',
      created_at: expect.any(Number),
      expires_at: expect.any(Number),
      development: false,
      binding_hash: 'b1',
    });
    expect(consumeOAuthState(deps, 'provider_a', 'h1', 'b1')).toEqual({ next: '/dashboard', development: false });
    expect(reasonOf(() => consumeOAuthState(deps, 'provider_a', 'h1', 'b1'))).toBe('oauth_state_reused');
    expect(platform.events.readStream('auth-oauth-state-h1', { direction: 'forward', limit: 10 }).map((e) => e.eventType)).toEqual([
      'auth_oauth_state_created',
      'auth_oauth_state_consumed',
    ]);
  });

  it('unknown, another provider, expired', () => {
    const { platform, deps } = setup();
    expect(reasonOf(() => consumeOAuthState(deps, 'provider_a', 'nope', 'b1'))).toBe('oauth_state_unknown');
    expect(reasonOf(() => consumeOAuthState(deps, 'provider_b', 'h1', 'b1'))).toBe('oauth_provider_mismatch');
    platform.clock.advance(OAUTH_STATE_TTL_MS + 1);
    expect(reasonOf(() => consumeOAuthState(deps, 'provider_a', 'h1', 'b1'))).toBe('oauth_state_expired');
  });

  it('another browser (no binding, or a different one) is refused and consumes nothing (RFC 9700 §4.7)', () => {
    const { platform, deps } = setup();
    expect(reasonOf(() => consumeOAuthState(deps, 'provider_a', 'h1', undefined))).toBe('oauth_browser_mismatch');
    expect(reasonOf(() => consumeOAuthState(deps, 'provider_a', 'h1', 'b2'))).toBe('oauth_browser_mismatch');
    expect(platform.events.readStream('auth-oauth-state-h1', { direction: 'forward', limit: 10 })).toHaveLength(1);
    expect(consumeOAuthState(deps, 'provider_a', 'h1', 'b1')).toEqual({ next: '/dashboard', development: false });
  });

  it('a consumption racing in between read and append (another host) loses with oauth_state_reused', () => {
    const { platform, deps } = setup();
    platform.faults.beforeNext('append', () => {
      platform.events.append('auth-oauth-state-h1', { tag: 'exact', val: 1n }, [{ eventType: 'auth_oauth_state_consumed', payload: '{}', metadata: '{}' }]);
    });
    expect(reasonOf(() => consumeOAuthState(deps, 'provider_a', 'h1', 'b1'))).toBe('oauth_state_reused');
  });
});
