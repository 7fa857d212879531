/**
 * The mailed-link flows in Chromium against the real host and a real SMTP server (aiosmtpd): the
 * verification link and the reset link are taken from the mail the server received and followed
 * in the browser. Registration → mail → confirm → "Verified" on the account page; "Forgot
 * password?" → mail → new password → every session of the account ended (another browser's too)
 * → sign in with the new one; change password from the account page. The pages in both palettes
 * and on a phone, without console errors.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, openPage, PHONE } from '../support/browser.ts';
import type { HostProcess } from '../../harness/host-process.ts';
import { startMailBrowserHost, type MailBrowserHost } from '../support/mail-browser-host.ts';
import { linkIn, type SmtpSink } from '../support/smtp-sink.ts';
import { requireTool } from '../../harness/tools.ts';

const chromiumTool = requireTool('chromium');
const python = requireTool('aiosmtpd');
const PASSWORD = 'correct horse battery staple';
const NEW_PASSWORD = 'a brand new passphrase here';
let serial = 0;
const uniqueEmail = (tag: string) => `${tag}-${Date.now().toString(36)}-${++serial}@example.com`;

async function noHorizontalScroll(page: Page): Promise<void> {
  const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(scroll).toBeLessThanOrEqual(client);
}
const background = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

describe.skipIf(!chromiumTool || !python)('mailed links in Chromium', () => {
  let setup: MailBrowserHost;
  let sink: SmtpSink;
  let host: HostProcess;
  let browser: Browser;

  beforeAll(async () => {
    setup = await startMailBrowserHost(python!, chromiumTool!);
    ({ sink, host, browser } = setup);
  }, 60_000);
  afterAll(() => setup?.stop());

  const mailTo = (email: string, subject: string, from = 0) => sink.waitFor((m) => m.envelope_to.includes(email) && m.subject === subject, { from });

  async function registerAndSignIn(page: Page, email: string, password = PASSWORD) {
    await page.goto(`${host.url}/login`);
    await page.fill('#register-form input[name=email]', email);
    await page.fill('#register-form input[name=password]', password);
    await Promise.all([page.waitForURL(/\/login\?notice=registered/), page.click('#register-form button[type=submit]')]);
    await signIn(page, email, password);
  }

  async function signIn(page: Page, email: string, password: string) {
    await page.goto(`${host.url}/login?next=%2Fdashboard`);
    await page.fill('#login-form input[name=email]', email);
    await page.fill('#login-form input[name=password]', password);
    await Promise.all([page.waitForURL(`${host.url}/dashboard`), page.click('#login-form button[type=submit]')]);
  }

  it('verifies the address through the link the SMTP server received', async () => {
    const email = uniqueEmail('verify');
    const { page, problems, close } = await openPage(browser, `${host.url}/login`);
    await registerAndSignIn(page, email);
    expect(await page.getAttribute('#email-state', 'data-state')).toBe('unverified');
    const link = linkIn(await mailTo(email, 'Confirm your email address'), '/verify-email');
    await page.goto(link);
    await Promise.all([page.waitForURL(`${host.url}/dashboard?notice=email_verified`), page.click('#verify-form button[type=submit]')]);
    expect(await page.textContent('#account-notice')).toContain('Your email address is verified.');
    expect(await page.getAttribute('#email-state', 'data-state')).toBe('verified');
    // The same link again: refused, with a way forward.
    await page.goto(link);
    await Promise.all([page.waitForURL(/\/verify-email\?error=not_found&form=verify&token=/), page.click('#verify-form button[type=submit]')]);
    expect(await page.getAttribute('#verify-error', 'data-error')).toBe('not_found');
    expect(problems).toEqual([]);
    await close();
  }, 90_000);

  it('resets a forgotten password through the mailed link: every session ends, the new password signs in', async () => {
    const email = uniqueEmail('reset');
    const other = await openPage(browser, `${host.url}/login`);
    await registerAndSignIn(other.page, email);
    const { page, problems, close } = await openPage(browser, `${host.url}/login`);
    await Promise.all([page.waitForURL(`${host.url}/forgot-password`), page.click('#forgot-password-link')]);
    await page.fill('#forgot-email', email);
    const from = sink.messages().length;
    await Promise.all([page.waitForURL(`${host.url}/forgot-password?notice=sent`), page.click('#forgot-form button[type=submit]')]);
    expect(await page.textContent('#forgot-notice')).toContain('If an account uses this address');
    const link = linkIn(await mailTo(email, 'Reset your password', from), '/reset-password');
    await page.goto(link);
    await page.fill('#reset-password', NEW_PASSWORD);
    await Promise.all([page.waitForURL(`${host.url}/login?notice=password_reset`), page.click('#reset-form button[type=submit]')]);
    expect(await page.textContent('#mail-notice')).toContain('Your password is reset');
    await mailTo(email, 'Your password was changed', from);
    // The other browser's session ended.
    await other.page.goto(`${host.url}/dashboard`);
    expect(other.page.url()).toContain('/login?next=%2Fdashboard');
    await signIn(page, email, NEW_PASSWORD);
    // The used link shows it is dead, and offers a new one.
    await page.goto(link);
    expect(await page.getAttribute('#reset-error', 'data-error')).toBe('not_found');
    expect(await page.locator('a[href="/forgot-password"]').count()).toBe(1);
    expect(problems).toEqual([]);
    await close();
    await other.close();
  }, 90_000);

  it('changes the password from the account page (the current one required)', async () => {
    const email = uniqueEmail('change');
    const { page, problems, close } = await openPage(browser, `${host.url}/login`);
    await registerAndSignIn(page, email);
    await page.fill('#current-password', 'not the password at all');
    await page.fill('#new-password', NEW_PASSWORD);
    // Back on the account page (never an /api/ address), the error beside the current password.
    await Promise.all([page.waitForURL(`${host.url}/dashboard?error=invalid_credentials&form=password`), page.click('#change-password-form button[type=submit]')]);
    expect(await page.textContent('#current-password-error')).toBe('The current password is not right.');
    await page.fill('#current-password', PASSWORD);
    await page.fill('#new-password', NEW_PASSWORD);
    await Promise.all([page.waitForURL(`${host.url}/dashboard?notice=password_changed`), page.click('#change-password-form button[type=submit]')]);
    expect(await page.textContent('#account-notice')).toContain('Your password is changed');
    expect(problems).toEqual([]);
    await close();
  }, 90_000);

  it('shows the pages in the dark and light palettes, and on a phone without horizontal scrolling', async () => {
    const dark = await openPage(browser, `${host.url}/forgot-password`, { ...PHONE, colorScheme: 'dark' });
    const light = await openPage(browser, `${host.url}/forgot-password`, { ...DESKTOP, colorScheme: 'light' });
    expect(await background(dark.page)).toBe('rgb(10, 14, 26)');
    expect(await background(light.page)).not.toBe(await background(dark.page));
    for (const path of ['/forgot-password', '/reset-password?token=x', '/verify-email?token=x']) {
      await dark.page.goto(`${host.url}${path}`);
      await dark.page.waitForSelector('html[data-ready="true"]');
      expect(await dark.page.locator('link[rel=stylesheet][href^="/pkg/styles."]').count()).toBe(1);
      await noHorizontalScroll(dark.page);
    }
    expect(dark.problems).toEqual([]);
    expect(light.problems).toEqual([]);
    await dark.close();
    await light.close();
  }, 60_000);
});
