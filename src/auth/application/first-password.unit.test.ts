/**
 * A provider account sets its first password through the reset link ("Forgot password?" or an
 * administrator's): the link goes to the address the provider verified, opening it sets the
 * password once, and the account then signs in with its provider and its password alike.
 */
import { describe, expect, it } from 'vitest';
import { linkOrCreateUserForExternalIdentity, loginWithPassword, requestPasswordReset, resetPassword } from './index.ts';
import { linkToken, memoryAuth } from './testing/memory-auth.ts';

describe('a provider account’s first password', () => {
  it('is set through the mailed link, once; the provider keeps signing it in', async () => {
    const { platform, deps } = memoryAuth();
    const identity = { provider: 'provider_a', subject: 'sub-1', email: 'pat@example.com', emailVerified: true };
    const account = await linkOrCreateUserForExternalIdentity(deps, identity);
    await expect(loginWithPassword(deps, { email: 'pat@example.com', password: 'a first password' })).rejects.toMatchObject({ code: 'invalid_credentials' });

    await requestPasswordReset(deps, 'pat@example.com', '192.0.2.9');
    platform.respond();
    const token = await linkToken(platform, 'pat@example.com', '/reset-password');
    await expect(resetPassword(deps, token, 'a first password', undefined)).resolves.toMatchObject({ userId: account.userId });
    await expect(loginWithPassword(deps, { email: 'pat@example.com', password: 'a first password' })).resolves.toMatchObject({ userId: account.userId });
    // Used once: the password now set, the link is dead.
    await expect(resetPassword(deps, token, 'another password here', undefined)).rejects.toMatchObject({ code: 'not_found' });
    await expect(linkOrCreateUserForExternalIdentity(deps, identity)).resolves.toMatchObject({ userId: account.userId });
  });
});
