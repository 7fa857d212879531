/**
 * The "Sign-in methods" card in Chromium (Chrome's virtual authenticator for the passkey), against
 * the real host, mail through a real SMTP server: a password-only account sees "Remove" for its
 * password disabled with the reason in words beside it; once a passkey is added it is enabled; a
 * removal without the password comes back with the words of the refusal and removes nothing; with
 * it, the password goes, and then the passkey's own "Remove" is disabled with the reason; the
 * passkey still signs in.
 */
import { describe, expect, it } from 'vitest';
import { startMailBrowserHost } from '../support/mail-browser-host.ts';
import { startedForSuite } from '../support/started-for-suite.ts';
import { addPasskeyOnAccountPage, sessionOf, signOutInPage, signUpVerified, withAuthenticator } from '../support/passkey-browser.ts';
import { requireTool } from '../../harness/tools.ts';
import { PASSWORD, uniqueEmail } from '../auth/support.ts';

const chromiumTool = requireTool('chromium');
const python = requireTool('aiosmtpd');
const REASON = 'This is the only way left to sign in to your account.';

describe.skipIf(!chromiumTool || !python)('the sign-in methods card in Chromium', () => {
  // A passkey's RP ID is the host of AUTH_PUBLIC_BASE_URL: localhost, not an IP address.
  const setup = startedForSuite(() => startMailBrowserHost(python!, chromiumTool!, { base: 'localhost' }), 120_000);

  it('says why the last way in cannot be removed, asks the password again, and removes the password while a passkey remains', { timeout: 120_000 }, async () => {
    const { context, page } = await withAuthenticator(setup().browser);
    const email = uniqueEmail('methods');
    await signUpVerified(page, setup().origin, email, setup().mailTo);

    // Only a password: its "Remove" is disabled, and the page says why, tied to the button.
    const removePassword = page.locator('button[data-remove-method="password"]');
    expect(await removePassword.isDisabled()).toBe(true);
    const described = await removePassword.getAttribute('aria-describedby');
    expect(await page.locator(`#${described}`).isVisible()).toBe(true);
    expect(await page.textContent(`#${described}`)).toContain(REASON);

    await addPasskeyOnAccountPage(page, 'Virtual key');
    await page.reload();
    expect(await removePassword.isDisabled()).toBe(false);
    expect(await page.locator('#passkeys button[data-remove-method^="passkey:"]').isDisabled()).toBe(false);
    expect(await page.locator('.method-reason').count()).toBe(0);

    // Without the password: back on the page with the refusal in words, nothing removed.
    await Promise.all([page.waitForURL(`${setup().origin}/dashboard?error=forbidden&form=methods`), removePassword.click()]);
    expect(await page.textContent('#sign-in-methods-error')).toContain('Nothing was removed: enter your password');
    expect(await removePassword.count()).toBe(1);

    await page.fill('#methods-password', PASSWORD);
    await Promise.all([page.waitForURL(`${setup().origin}/dashboard?notice=password_removed`), removePassword.click()]);
    expect(await page.textContent('#account-notice')).toContain('Your password is removed');
    expect(await removePassword.count()).toBe(0);
    // The passkey is now the only way in: its "Remove" is disabled with the reason beside it.
    const removePasskey = page.locator('#passkeys button[data-remove-method^="passkey:"]');
    expect(await removePasskey.isDisabled()).toBe(true);
    expect(await page.textContent(`#${await removePasskey.getAttribute('aria-describedby')}`)).toContain(REASON);
    // No password field any more: the card asks for a fresh sign-in instead.
    expect(await page.locator('#methods-password').count()).toBe(0);
    expect(await page.textContent('#methods-reauth-hint')).toContain('sign in with a passkey again first');

    // The passkey signs in; the password does not.
    await signOutInPage(page);
    const login = await page.evaluate(
      async ([address, password]) =>
        (await fetch('/api/auth/password/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: address, password }) })).status,
      [email, PASSWORD],
    );
    expect(login).toBe(401);
    // /login's passkey autofill: the authenticator answers with the one passkey it holds.
    await Promise.all([page.waitForURL(`${setup().origin}/dashboard`), page.goto(`${setup().origin}/login`)]);
    expect(await sessionOf(page)).toMatchObject({ authenticated: true, method: 'passkey' });
    await context.close();
  });
});
