/**
 * Passkeys in Chromium with Chrome's virtual authenticator (DevTools protocol `WebAuthn` domain:
 * CTAP2, internal transport, resident keys, user verification that succeeds) against the real
 * host, mail through a real SMTP server (aiosmtpd): register with a password, verify the address
 * with the mailed link, add a passkey from the account page (the password asked again), sign out, sign in with
 * "Sign in with a passkey" on /login, and the session is aal2 with `mfa` in its amr; /login starts
 * the passkey autofill as it loads (the email field says `username webauthn`); rename and remove
 * from the account page; an unverified account is not offered "Add a passkey", and a wrong
 * password adds nothing. The attacks a browser would not let a page make are in
 * test/passkeys/ceremony-suite.ts.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { startMailBrowserHost } from '../support/mail-browser-host.ts';
import { startedForSuite } from '../support/started-for-suite.ts';
import { addPasskeyOnAccountPage, registerAndSignIn, sessionOf, signOutInPage, signUpVerified, verifyOnPage, withAuthenticator } from '../support/passkey-browser.ts';
import { requireTool } from '../../harness/tools.ts';
import { PASSWORD, uniqueEmail } from '../auth/support.ts';
import { linkIn } from '../support/smtp-sink.ts';

const chromiumTool = requireTool('chromium');
const python = requireTool('aiosmtpd');

describe.skipIf(!chromiumTool || !python)('passkeys in Chromium', () => {
  // The RP ID is the host of AUTH_PUBLIC_BASE_URL: localhost (WebAuthn refuses an IP address as RP ID).
  const setup = startedForSuite(() => startMailBrowserHost(python!, chromiumTool!, { base: 'localhost' }), 120_000);

  /** Registers, signs in and verifies the address with the mailed link, in the page. */
  const verifiedAccount = (page: Page, email: string) => signUpVerified(page, setup().origin, email, setup().mailTo);

  /** A signed-in page whose authenticator holds a passkey added on the account page. */
  async function accountWithPasskey() {
    const browsing = await withAuthenticator(setup().browser);
    const { page, cdp, authenticatorId } = browsing;
    const email = uniqueEmail('passkey');
    await verifiedAccount(page, email);
    expect(await page.isVisible('#passkeys-empty')).toBe(true);
    await addPasskeyOnAccountPage(page, 'Virtual key');
    expect(await page.textContent('#passkeys .passkey-name')).toContain('Virtual key');
    expect(await page.textContent('#passkeys li[data-passkey-id]')).toContain('never');
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]?.isResidentCredential).toBe(true);
    return { ...browsing, email };
  }

  async function expectPasskeySession(page: Page, email: string) {
    expect(await page.textContent('#signed-in-as')).toContain(email);
    expect(await page.getAttribute('#method', 'data-method')).toBe('passkey');
    const session = await sessionOf(page);
    expect(session).toMatchObject({ authenticated: true, aal: 'aal2', method: 'passkey' });
    expect(session['amr']).toEqual(expect.arrayContaining(['mfa']));
    // The use is recorded: the list no longer says "never".
    expect(await page.textContent('#passkeys li[data-passkey-id]')).not.toContain('never');
  }

  it('adds a passkey on the account page, signs out, and signs in with "Sign in with a passkey": aal2', { timeout: 90_000 }, async () => {
    const { context, page, cdp, authenticatorId, email } = await accountWithPasskey();
    // Signed out, with the authenticator not answering by itself, so that the autofill request
    // /login starts stays pending (the next test lets it answer) and the button is what signs in.
    await signOutInPage(page);
    await cdp.send('WebAuthn.setAutomaticPresenceSimulation', { authenticatorId, enabled: false });
    const autofillStarted = page.waitForRequest((request) => request.url().endsWith('/api/auth/passkeys/authentication/options'));
    await page.goto(`${setup().origin}/login`);
    await autofillStarted;
    expect((await sessionOf(page))['authenticated']).toBe(false);
    await cdp.send('WebAuthn.setAutomaticPresenceSimulation', { authenticatorId, enabled: true });
    const asked: string[] = [];
    page.on('request', (request) => asked.push(new URL(request.url()).pathname));
    await Promise.all([page.waitForURL(`${setup().origin}/dashboard`), page.click('#passkey-sign-in')]);
    // The button's own ceremony: fresh options, then the verification.
    expect(asked.slice(0, 2)).toEqual(['/api/auth/passkeys/authentication/options', '/api/auth/passkeys/authentication/verify']);
    await expectPasskeySession(page, email);
    await context.close();
  });

  it('signs in through the passkey autofill as /login loads (conditional mediation, email field "username webauthn")', { timeout: 90_000 }, async () => {
    const { context, page, email } = await accountWithPasskey();
    // Sign out through the account page: it lands on /login, whose autofill request the
    // authenticator answers with the one passkey it holds, without a click.
    const visited: string[] = [];
    page.on('framenavigated', (frame) => visited.push(new URL(frame.url()).pathname));
    await Promise.all([page.waitForURL(/\/login/, { waitUntil: 'commit' }), page.click('#logout-form button')]);
    await page.waitForURL(`${setup().origin}/dashboard`);
    expect(visited).toEqual(['/login', '/dashboard']);
    await expectPasskeySession(page, email);
    await context.close();
  });

  it('offers the autofill on /login: the email field says "username webauthn" and the browser supports conditional mediation', async () => {
    const { context, page } = await withAuthenticator(setup().browser);
    const optionsAsked = page.waitForRequest((request) => request.url().endsWith('/api/auth/passkeys/authentication/options') && request.method() === 'POST');
    await page.goto(`${setup().origin}/login`);
    await optionsAsked;
    expect(await page.getAttribute('#login-email', 'autocomplete')).toBe('username webauthn');
    expect(await page.evaluate(() => PublicKeyCredential.isConditionalMediationAvailable())).toBe(true);
    await context.close();
  });

  it('renames and removes a passkey from the account page', async () => {
    const { context, page } = await withAuthenticator(setup().browser);
    await verifiedAccount(page, uniqueEmail('passkey-manage'));
    await page.fill('#passkey-password', PASSWORD);
    await Promise.all([page.waitForSelector('#passkeys li[data-passkey-id]'), page.click('#passkey-add')]);
    page.once('dialog', (dialog) => void dialog.accept('Renamed key'));
    await page.click('#passkeys button[data-passkey-action=rename]');
    await page.waitForFunction(() => document.querySelector('#passkeys .passkey-name')?.textContent?.includes('Renamed key'));
    await page.reload();
    expect(await page.textContent('#passkeys .passkey-name')).toContain('Renamed key');
    // Remove submits the "Sign-in methods" form: the password asked again (the password stays a way in).
    await page.fill('#methods-password', PASSWORD);
    await Promise.all([page.waitForURL(`${setup().origin}/dashboard?notice=passkey_removed`), page.click('#passkeys button[data-remove-method^="passkey:"]')]);
    expect(await page.locator('#passkeys li[data-passkey-id]').count()).toBe(0);
    expect(await page.isVisible('#passkeys-empty')).toBe(true);
    const listed = await page.evaluate(async () => (await fetch('/api/auth/passkeys')).json() as Promise<{ passkeys: unknown[] }>);
    expect(listed.passkeys).toEqual([]);
    await context.close();
  });

  it('asks the password again before adding a passkey, and offers no "Add" to an unverified address', { timeout: 90_000 }, async () => {
    const { context, page, cdp, authenticatorId } = await withAuthenticator(setup().browser);
    const email = uniqueEmail('passkey-reauth');
    await registerAndSignIn(page, setup().origin, email);
    // Unverified: the card says why, and there is no form to add one.
    expect(await page.isVisible('#passkey-add-unverified')).toBe(true);
    expect(await page.$('#passkey-add-form')).toBeNull();
    await verifyOnPage(page, setup().origin, linkIn(await setup().mailTo(email, 'Confirm your email address'), '/verify-email'));
    await page.fill('#passkey-password', 'not the password at all');
    await page.click('#passkey-add');
    await page.waitForSelector('#passkeys-status:not([hidden])');
    expect(await page.textContent('#passkeys-status')).toContain('re-authentication failed');
    expect((await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials).toHaveLength(0);
    await addPasskeyOnAccountPage(page, 'Second try');
    expect(await page.textContent('#passkeys .passkey-name')).toContain('Second try');
    const mail = await setup().mailTo(email, 'A passkey was added to your account');
    expect(mail.text).toContain('"Second try"');
    await context.close();
  });
});
