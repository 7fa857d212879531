/** Linking from inside an account, over the in-memory platform: every refusal writes nothing. */
import { describe, expect, it } from 'vitest';
import { createMemoryPlatform } from '../../platform/testing/memory-platform.ts';
import { parseAuthConfig } from '../config.ts';
import { authEvent, authStreams, linkIdentityToAccount, linkOrCreateUserForExternalIdentity, loginWithPassword, registerWithPassword, sha256Hex, type AuthDeps } from './index.ts';

const alice = { email: 'Alice@Example.com', password: 'correct horse battery' };

async function setup(verified: boolean) {
  const platform = createMemoryPlatform();
  const deps: AuthDeps = { platform, config: parseAuthConfig(new Map()) };
  await registerWithPassword(deps, alice);
  const { userId } = await loginWithPassword(deps, alice);
  // What following the mailed link appends (email-verification.ts).
  if (verified)
    platform.events.append(authStreams.email(await sha256Hex('alice@example.com')), { tag: 'any' }, [authEvent('auth_email_verified', { user_id: userId, verified_at: 0 })]);
  const links = () => platform.events.readAll(0n, 1000).filter((e) => e.eventType === 'auth_external_identity_linked').length;
  return { deps, user: { userId, email: 'alice@example.com' }, links };
}

const identity = { provider: 'provider_a', subject: 'sub-1', email: 'ALICE@example.com', emailVerified: true };

describe('linkIdentityToAccount()', () => {
  it('links a verified provider email equal (once normalised) to the account’s verified address; the next sign-in lands there', async () => {
    const { deps, user, links } = await setup(true);
    expect(await linkIdentityToAccount(deps, user, identity)).toEqual({ linked: true, already: false });
    expect(await linkIdentityToAccount(deps, user, identity)).toEqual({ linked: true, already: true });
    expect(links()).toBe(1);
    expect(await linkOrCreateUserForExternalIdentity(deps, identity)).toMatchObject({ userId: user.userId, created: false, linked: false });
  });

  it('refuses, writing nothing: unverified account, unverified or other provider email, another account’s identity', async () => {
    const unverified = await setup(false);
    expect(await linkIdentityToAccount(unverified.deps, unverified.user, identity)).toEqual({ linked: false, refusal: 'account_unverified' });
    expect(unverified.links()).toBe(0);

    const { deps, user, links } = await setup(true);
    expect(await linkIdentityToAccount(deps, user, { ...identity, emailVerified: false })).toEqual({ linked: false, refusal: 'provider_email_unverified' });
    expect(await linkIdentityToAccount(deps, user, { ...identity, email: null })).toEqual({ linked: false, refusal: 'provider_email_unverified' });
    expect(await linkIdentityToAccount(deps, user, { ...identity, email: 'alice@example.org' })).toEqual({ linked: false, refusal: 'email_mismatch' });
    expect(await linkIdentityToAccount(deps, user, { ...identity, email: 'not an address' })).toEqual({ linked: false, refusal: 'email_mismatch' });
    // Another user id with the same email (a stale session of a deleted account, say): not its account.
    expect(await linkIdentityToAccount(deps, { ...user, userId: 'someone-else' }, identity)).toEqual({ linked: false, refusal: 'account_unverified' });
    expect(links()).toBe(0);
    // The identity signed in first: a separate account holds it.
    const separate = await linkOrCreateUserForExternalIdentity(deps, identity);
    expect(separate.userId).not.toBe(user.userId);
    expect(await linkIdentityToAccount(deps, user, identity)).toEqual({ linked: false, refusal: 'identity_taken' });
    expect(links()).toBe(1);
  });
});
