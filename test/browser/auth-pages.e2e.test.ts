/**
 * /login, /dashboard and the sign-in error page in Chromium against the real host: one design
 * with the counter page (dark palette, 390 px without horizontal scrolling, no console errors),
 * keyboard-only sign-in and sign-out, the counter page's header following the session, errors
 * next to their field with the typed email kept (no JavaScript), local times, and revoking
 * another browser's session from the account page (with and without JavaScript).
 */
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, launchChromium, openPage, PHONE } from '../support/browser.ts';
import { startHost, type HostProcess } from '../../harness/host-process.ts';
import { requireTool } from '../../harness/tools.ts';

const chromiumTool = requireTool('chromium');
const PASSWORD = 'correct horse battery staple';
let serial = 0;
const uniqueEmail = (tag: string) => `${tag}-${Date.now().toString(36)}-${++serial}@example.com`;

/** Presses Tab until `selector` has focus (at most 40 times): the page is used by keyboard only. */
async function tabTo(page: Page, selector: string): Promise<void> {
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
  }
  throw new Error(`Tab never reached ${selector}`);
}

async function noHorizontalScroll(page: Page): Promise<void> {
  const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(scroll).toBeLessThanOrEqual(client);
}

const background = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

describe.skipIf(!chromiumTool)('auth pages in Chromium', () => {
  let host: HostProcess;
  let browser: Browser;

  beforeAll(async () => {
    [host, browser] = await Promise.all([startHost({ args: ['--shutdown-grace-ms', '300'] }), launchChromium(chromiumTool!)]);
  });
  afterAll(async () => {
    await browser?.close();
    await host?.stop();
  });

  /**
   * A fresh browser signed in through the /login form (so the session carries its device hint).
   * With `register`, it first creates the account with the registration form, which lands back on
   * /login with the neutral notice and the email kept in the sign-in form (no account enumeration).
   */
  async function signedIn(email: string, options: BrowserContextOptions = DESKTOP, register = false) {
    const watched = await openPage(browser, `${host.url}/login`, options);
    if (register) {
      await watched.page.fill('#register-form input[name=email]', email);
      await watched.page.fill('#register-form input[name=password]', PASSWORD);
      await Promise.all([watched.page.waitForURL(/\/login\?notice=registered/), watched.page.click('#register-form button[type=submit]')]);
      expect(await watched.page.textContent('#registered-notice')).toContain('If the address was free, your account exists now: sign in.');
      expect(await watched.page.inputValue('#login-email')).toBe(email);
    } else {
      await watched.page.fill('#login-form input[name=email]', email);
    }
    await watched.page.fill('#login-form input[name=password]', PASSWORD);
    await Promise.all([watched.page.waitForURL(`${host.url}/dashboard`), watched.page.click('#login-form button[type=submit]')]);
    await watched.page.goto(host.url);
    await watched.page.waitForSelector('#account-nav[data-session="signed-in"]');
    return watched;
  }

  it('signs in and out by keyboard only, and the counter page header follows the session', async () => {
    const email = uniqueEmail('keys');
    const { page, problems, close } = await openPage(browser, host.url);
    await page.waitForSelector('#account-nav[data-session="signed-out"]');
    expect(await page.locator('#sign-in-link').isVisible()).toBe(true);

    await tabTo(page, '#sign-in-link');
    await Promise.all([page.waitForURL(`${host.url}/login?next=%2F`), page.keyboard.press('Enter')]);
    await tabTo(page, '#register-email');
    await page.keyboard.type(email);
    await tabTo(page, '#register-password');
    await page.keyboard.type(PASSWORD);
    expect(await page.textContent('#register-password-hint')).toBe('Strong: a long password.');
    // Registration never signs in (no account enumeration): back on /login with the notice and the email kept.
    await Promise.all([page.waitForURL(`${host.url}/login?notice=registered&next=%2F`), page.keyboard.press('Enter')]);
    expect(await page.textContent('#registered-notice')).toContain('If the address was free, your account exists now: sign in.');
    expect(await page.inputValue('#login-email')).toBe(email);
    await tabTo(page, '#login-password');
    await page.keyboard.type(PASSWORD);
    await Promise.all([page.waitForURL(`${host.url}/`), page.keyboard.press('Enter')]);

    await page.waitForSelector('#account-nav[data-session="signed-in"]');
    expect(await page.textContent('#account-email')).toBe(email);
    expect(await page.locator('#sign-in-link').isVisible()).toBe(false);
    await tabTo(page, '#account-menu > summary');
    await page.keyboard.press('Enter');
    expect(await page.locator('#menu-account').isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    expect(await page.locator('#menu-account').isVisible()).toBe(false);
    await page.keyboard.press('Enter');
    await tabTo(page, '#menu-account');
    await Promise.all([page.waitForURL(`${host.url}/dashboard`), page.keyboard.press('Enter')]);
    expect(await page.textContent('#signed-in-as')).toContain(email);

    await tabTo(page, '#logout-form button');
    await Promise.all([page.waitForURL(`${host.url}/login`), page.keyboard.press('Enter')]);
    await page.goto(host.url);
    await page.waitForSelector('#account-nav[data-session="signed-out"]');
    expect(problems).toEqual([]);
    await close();
  });

  it('applies the dark palette and fits 390 px without horizontal scrolling on every page', async () => {
    const email = uniqueEmail('phone');
    const phoneDark = { ...PHONE, colorScheme: 'dark' } as const;
    const watched = await signedIn(email, phoneDark, true);
    const { page, problems } = watched;
    const counterBackground = await background(page);
    expect(counterBackground).toBe('rgb(10, 14, 26)');
    await noHorizontalScroll(page);
    for (const path of ['/dashboard', '/login']) {
      await page.goto(`${host.url}${path}`);
      await page.waitForSelector('html[data-ready="true"]');
      expect(await background(page)).toBe(counterBackground);
      expect(await page.locator('link[rel=stylesheet][href^="/pkg/styles."]').count()).toBe(1);
      expect(await page.locator('header .brand[href="/"]').textContent()).toBe('Counter');
      await noHorizontalScroll(page);
    }
    expect(problems).toEqual([]);

    // The sign-in error page (a callback for a provider that is not configured: 404 by design).
    await page.goto(`${host.url}/api/auth/oauth/provider_a/callback?error=access_denied`);
    await page.waitForSelector('html[data-ready="true"]');
    expect(await page.locator('#back-to-login').isVisible()).toBe(true);
    expect(await background(page)).toBe(counterBackground);
    await noHorizontalScroll(page);
    expect(problems.filter((p) => !p.includes('/api/auth/oauth/provider_a/callback') && !p.includes('404 (Not Found)'))).toEqual([]);
    await watched.close();

    // The light palette is the other one.
    const light = await openPage(browser, `${host.url}/login`, { ...DESKTOP, colorScheme: 'light' });
    expect(await background(light.page)).toBe('rgb(244, 245, 250)');
    expect(light.problems).toEqual([]);
    await light.close();
  });

  it('without JavaScript, shows a failed sign-in next to the field and keeps the email, not the password', async () => {
    const email = uniqueEmail('nojs');
    const context = await browser.newContext({ ...DESKTOP, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${host.url}/login`);
    await page.fill('#register-email', email);
    await page.fill('#register-password', 'short');
    // `minlength` would stop the browser; the server must cope on its own.
    await page.evaluate(() => document.getElementById('register-password')?.removeAttribute('minlength'));
    // An invalid form goes back to /login (post/redirect/get), the error beside its field.
    await Promise.all([page.waitForURL(/\/login\?error=validation&form=register&reason=too_short/), page.click('#register-form button[type=submit]')]);
    expect(await page.textContent('#register-password-error')).toBe('Use at least 12 characters.');
    expect(await page.getAttribute('#register-password', 'aria-invalid')).toBe('true');
    expect(await page.getAttribute('#register-password', 'aria-describedby')).toContain('register-password-error');
    expect(await page.inputValue('#register-email')).toBe(email);
    expect(await page.inputValue('#register-password')).toBe('');

    await page.fill('#login-email', email);
    await page.fill('#login-password', 'not the password');
    await Promise.all([page.waitForURL(/error=invalid_credentials/), page.click('#login-form button[type=submit]')]);
    expect(await page.textContent('#login-password-error')).toBe('Invalid email or password.');
    expect(await page.inputValue('#login-email')).toBe(email);
    expect(await page.inputValue('#login-password')).toBe('');
    // Read once: a reload shows an empty form.
    await page.goto(`${host.url}/login`);
    expect(await page.inputValue('#login-email')).toBe('');
    await context.close();
  });

  it('lists the sessions with local times; revoking the other one signs that browser out', async () => {
    const email = uniqueEmail('revoke');
    const other = await signedIn(email, PHONE, true);
    const mine = await signedIn(email, { ...DESKTOP, locale: 'de-DE', timezoneId: 'Asia/Tokyo' });
    await mine.page.goto(`${host.url}/dashboard`);
    await mine.page.waitForSelector('html[data-ready="true"]');
    const rows = mine.page.locator('#sessions li');
    expect(await rows.count()).toBe(2);
    expect(await mine.page.textContent('#sessions li[data-current="true"] .session-device')).toContain('This browser');
    expect(await mine.page.textContent('#sessions li:not([data-current]) .session-device')).toContain('Chrome on Android');
    expect(await mine.page.textContent('#sessions-title + .hint')).toBe('times in Asia/Tokyo');
    const shown = await mine.page.locator('#sessions time').first().textContent();
    expect(shown).not.toContain('UTC');
    expect(shown).toMatch(/\d{2}\.\d{2}\.\d{4}|\d{1,2}\. \w+\.? \d{4}/);

    await mine.page.click('#sessions li:not([data-current]) form button');
    await mine.page.waitForFunction(() => document.querySelectorAll('#sessions li').length === 1);
    // The other browser is signed out: its header and its account page say so.
    await other.page.reload();
    await other.page.waitForSelector('#account-nav[data-session="signed-out"]');
    await other.page.goto(`${host.url}/dashboard`);
    expect(new URL(other.page.url()).pathname).toBe('/login');
    expect(mine.problems).toEqual([]);
    expect(other.problems).toEqual([]);

    // "Sign out everywhere" ends this browser's session too.
    await Promise.all([mine.page.waitForURL(`${host.url}/login`), mine.page.click('#revoke-all-form button')]);
    expect(await mine.page.evaluate(async () => ((await (await fetch('/api/auth/session')).json()) as { authenticated: boolean }).authenticated)).toBe(false);
    await other.close();
    await mine.close();
  });

  it('without JavaScript, the session forms post and revoke too', async () => {
    const email = uniqueEmail('nojs-revoke');
    const other = await signedIn(email, PHONE, true);
    const context = await browser.newContext({ ...DESKTOP, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${host.url}/login`);
    await page.fill('#login-email', email);
    await page.fill('#login-password', PASSWORD);
    await Promise.all([page.waitForURL(`${host.url}/dashboard`), page.click('#login-form button[type=submit]')]);
    expect(await page.locator('#sessions li').count()).toBe(2);
    await Promise.all([page.waitForURL(`${host.url}/dashboard`), page.click('#sessions li:not([data-current]) form button')]);
    expect(await page.locator('#sessions li').count()).toBe(1);
    await other.page.goto(`${host.url}/dashboard`);
    expect(new URL(other.page.url()).pathname).toBe('/login');
    await Promise.all([page.waitForURL(`${host.url}/login`), page.click('#revoke-all-form button')]);
    await page.goto(`${host.url}/dashboard`);
    expect(new URL(page.url()).pathname).toBe('/login');
    await other.close();
    await context.close();
  });
});
