/**
 * Passkeys in Chromium: a page with Chrome's virtual authenticator (DevTools protocol `WebAuthn`
 * domain), the password sign-up and mailed verification that come before adding a passkey, and
 * the steps on the account page. Shared by the Node host and `wasmtime serve` browser suites.
 */
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { DESKTOP } from './browser.ts';
import { PASSWORD } from '../auth/support.ts';
import { linkIn, type ReceivedMail } from './smtp-sink.ts';

/** A browser context whose page holds a virtual platform authenticator with user verification. */
export async function withAuthenticator(browser: Browser): Promise<{ context: BrowserContext; page: Page; cdp: CDPSession; authenticatorId: string }> {
  const context = await browser.newContext(DESKTOP);
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return { context, page, cdp, authenticatorId };
}

export async function registerAndSignIn(page: Page, base: string, email: string): Promise<void> {
  await page.goto(`${base}/login`);
  await page.fill('#register-form input[name=email]', email);
  await page.fill('#register-form input[name=password]', PASSWORD);
  await Promise.all([page.waitForURL(/\/login\?notice=registered/), page.click('#register-form button[type=submit]')]);
  await page.fill('#login-form input[name=password]', PASSWORD);
  await Promise.all([page.waitForURL(`${base}/dashboard`), page.click('#login-form button[type=submit]')]);
}

export const sessionOf = (page: Page) => page.evaluate(async () => (await fetch('/api/auth/session')).json() as Promise<Record<string, unknown>>);

/** Follows a mailed verification link in the page (its form post), signed in: back on /dashboard, the address verified. */
export async function verifyOnPage(page: Page, base: string, link: string): Promise<void> {
  const url = new URL(link);
  await page.goto(`${base}${url.pathname}${url.search}`);
  await Promise.all([page.waitForURL(`${base}/dashboard?notice=email_verified`), page.click('#verify-form button[type=submit]')]);
}

/** Registers, signs in and verifies the address with the mailed link (`mailTo` waits for it), in the page: on /dashboard. */
export async function signUpVerified(page: Page, base: string, email: string, mailTo: (email: string, subject: string) => Promise<ReceivedMail>): Promise<void> {
  await registerAndSignIn(page, base, email);
  await verifyOnPage(page, base, linkIn(await mailTo(email, 'Confirm your email address'), '/verify-email'));
}

/** Signs out through the API from the page (the page itself stays where it is). */
export async function signOutInPage(page: Page): Promise<void> {
  await page.evaluate(() => fetch('/api/auth/logout', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }));
}

/** On /dashboard: names and adds a passkey, the password asked again, and waits until the list shows it. */
export async function addPasskeyOnAccountPage(page: Page, name: string, password = PASSWORD): Promise<void> {
  await page.fill('#passkey-name', name);
  await page.fill('#passkey-password', password);
  await Promise.all([page.waitForSelector('#passkeys li[data-passkey-id]'), page.click('#passkey-add')]);
}
