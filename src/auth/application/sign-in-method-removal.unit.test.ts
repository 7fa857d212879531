/** removeSignInMethod() over the in-memory platform: one change at a time, the last way in kept, an unlinked identity kept apart. */
import { describe, expect, it } from 'vitest';
import { createMemoryPlatform } from '../../platform/testing/memory-platform.ts';
import { parseAuthConfig } from '../config.ts';
import { findActiveSession, issueSession, LAST_WAY_IN_MESSAGE, linkOrCreateUserForExternalIdentity, removeSignInMethod, signInMethodsView, type AuthDeps } from './index.ts';
import { authNamespaces } from './streams.ts';

const email = 'carol@example.com';
const client = '192.0.2.9';

async function providerAccount() {
  const platform = createMemoryPlatform();
  const deps: AuthDeps = { platform, config: parseAuthConfig(new Map()) };
  const a = await linkOrCreateUserForExternalIdentity(deps, { provider: 'provider_a', subject: 'sub-a', email, emailVerified: true });
  // A second provider with the same verified address joins the provider-made account by email.
  const b = await linkOrCreateUserForExternalIdentity(deps, { provider: 'provider_b', subject: 'sub-b', email, emailVerified: true });
  expect(b.userId).toBe(a.userId);
  platform.respond();
  const issued = await issueSession(deps, { userId: a.userId, email, aal: 'aal1', method: 'oauth:provider_a' });
  const session = (await findActiveSession(deps, issued.sessionId))!;
  return { platform, deps, userId: a.userId, session };
}

describe('removeSignInMethod()', () => {
  it('takes one change at a time per account: while another holds the turn, 409 and nothing removed', async () => {
    const { platform, deps, userId, session } = await providerAccount();
    platform.keyValue.increment(authNamespaces.methodChange, userId, 1n, 10_000n);
    await expect(removeSignInMethod(deps, session, { kind: 'provider', provider: 'provider_a' }, { client })).rejects.toMatchObject({ code: 'conflict' });
    expect((await signInMethodsView(deps, session)).methods.map((m) => m.method)).toEqual(['provider:provider_a', 'provider:provider_b']);
    platform.keyValue.delete(authNamespaces.methodChange, userId);
    await removeSignInMethod(deps, session, { kind: 'provider', provider: 'provider_a' }, { client });
    // The turn is given back after each change.
    expect(platform.keyValue.get(authNamespaces.methodChange, userId)).toBeUndefined();
  });

  it('unlinks while another way in remains, then keeps the last one; the unlinked subject gets an account of its own', async () => {
    const { platform, deps, userId, session } = await providerAccount();
    expect(await removeSignInMethod(deps, session, { kind: 'provider', provider: 'provider_a' }, { client })).toEqual({ removed: 'provider:provider_a', sessionsEnded: 0 });
    platform.respond();
    await expect(removeSignInMethod(deps, session, { kind: 'provider', provider: 'provider_b' }, { client })).rejects.toMatchObject({
      code: 'conflict',
      message: LAST_WAY_IN_MESSAGE,
    });
    const again = await linkOrCreateUserForExternalIdentity(deps, { provider: 'provider_a', subject: 'sub-a', email, emailVerified: true });
    expect(again.userId).not.toBe(userId);
    expect((await linkOrCreateUserForExternalIdentity(deps, { provider: 'provider_b', subject: 'sub-b', email, emailVerified: true })).userId).toBe(userId);
  });

  it('asks re-authentication: a provider session older than 5 minutes removes nothing', async () => {
    const { platform, deps, session } = await providerAccount();
    platform.clock.advance(6 * 60_000);
    await expect(removeSignInMethod(deps, session, { kind: 'provider', provider: 'provider_a' }, { client })).rejects.toMatchObject({ code: 'forbidden' });
    expect((await signInMethodsView(deps, session)).methods).toHaveLength(2);
  });
});
