/**
 * Forms that stay on their page and errors a person can read, in Chromium against the real host
 * with mail through a real SMTP server (aiosmtpd): a refused form post returns to the form's own
 * page (post/redirect/get, never an /api/ address) with the error beside its field, the email kept
 * and, for a lockout, the time it lifts in words; a reload does not post again. A browser that opens
 * an unknown address gets a page in the product's design, while an API client keeps the JSON
 * envelope; /api/docs shows its Markdown as tables and code, not as pipes and backticks.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, openPage } from '../support/browser.ts';
import type { HostProcess } from '../../harness/host-process.ts';
import { startMailBrowserHost, type MailBrowserHost } from '../support/mail-browser-host.ts';
import { requireTool } from '../../harness/tools.ts';
import { PASSWORD, register } from '../auth/support.ts';

const chromiumTool = requireTool('chromium');
const python = requireTool('aiosmtpd');

/** The page's own form posts, as the browser sent them (a reload must add none). */
function countPosts(page: Page): () => number {
  let posts = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.isNavigationRequest()) posts++;
  });
  return () => posts;
}

describe.skipIf(!chromiumTool || !python)('forms that return to their page, errors as pages', () => {
  let setup: MailBrowserHost;
  let host: HostProcess;
  let browser: Browser;

  beforeAll(async () => {
    setup = await startMailBrowserHost(python!, chromiumTool!, { env: { AUTH_LOGIN_MAX_FAILURES: '2', AUTH_LOGIN_LOCKOUT_SECONDS: '110' } });
    ({ host, browser } = setup);
  }, 60_000);
  afterAll(() => setup?.stop());

  it('a locked-out sign-in stays on /login, says when to try again and keeps the email', async () => {
    const { email } = await register(host.url);
    const { page, close } = await openPage(browser, `${host.url}/login`);
    const posts = countPosts(page);
    // Two free guesses; then the account-wide budget slows the next ones (a wait of seconds) until the pair's lock (110 s) takes over.
    let shown = '';
    for (let attempt = 1; attempt <= 8 && !shown.includes('minute'); attempt++) {
      await page.fill('#login-email', email);
      await page.fill('#login-password', `wrong password ${attempt}`);
      // The page the redirect lands on (the address may be the same as before).
      await Promise.all([page.waitForResponse((r) => r.request().method() === 'GET' && r.url().includes('/login?error=')), page.click('#login-form button[type=submit]')]);
      await page.waitForLoadState();
      expect(new URL(page.url()).pathname).toBe('/login');
      shown = (await page.locator('#login-form-error').count()) > 0 ? ((await page.textContent('#login-form-error')) ?? '') : '';
      const seconds = /Try again in (\d+) seconds?\./.exec(shown)?.[1];
      if (seconds) await page.waitForTimeout(Number(seconds) * 1000 + 300);
    }
    expect(page.url(), page.url()).toMatch(/\/login\?error=rate_limited&form=login&retry_at=\d+/);
    // The lockout lasts 110 s: in words, rounded up, beside the form it concerns.
    expect(await page.textContent('#login-form-error')).toBe('Too many attempts. Try again in 2 minutes.');
    expect(await page.inputValue('#login-email')).toBe(email);
    expect(await page.inputValue('#login-password')).toBe('');
    const before = posts();
    await page.reload();
    expect(posts()).toBe(before);
    expect(await page.textContent('#login-form-error')).toMatch(/^Too many attempts\. Try again in (2 minutes|1 minute)\.$/);
    await close();
  }, 90_000);

  it('a refused "forgot password" stays on its page with the error beside the email, which it keeps', async () => {
    const { page, problems, close } = await openPage(browser, `${host.url}/forgot-password`);
    // `type=email` would stop the browser first; the server's answer is under test.
    await page.evaluate(() => document.getElementById('forgot-email')?.setAttribute('type', 'text'));
    await page.fill('#forgot-email', 'not an address');
    await Promise.all([page.waitForURL(/\/forgot-password\?error=validation&form=forgot$/), page.click('#forgot-form button[type=submit]')]);
    expect(await page.textContent('#forgot-email-error')).toBe('Check what you typed and try again.');
    expect(await page.getAttribute('#forgot-email', 'aria-invalid')).toBe('true');
    expect(await page.inputValue('#forgot-email')).toBe('not an address');
    expect(problems).toEqual([]);
    await close();
  }, 60_000);

  it('a wrong current password keeps the account page, the error beside that field', async () => {
    const { email } = await register(host.url);
    const { page, close } = await openPage(browser, `${host.url}/login?next=%2Fdashboard`);
    await page.fill('#login-email', email);
    await page.fill('#login-password', PASSWORD);
    await Promise.all([page.waitForURL(`${host.url}/dashboard`), page.click('#login-form button[type=submit]')]);
    await page.fill('#current-password', 'not the password at all');
    await page.fill('#new-password', 'a brand new passphrase here');
    await Promise.all([page.waitForURL(`${host.url}/dashboard?error=invalid_credentials&form=password`), page.click('#change-password-form button[type=submit]')]);
    expect(await page.textContent('#current-password-error')).toBe('The current password is not right.');
    expect(await page.getAttribute('#current-password', 'aria-invalid')).toBe('true');
    expect(await page.inputValue('#current-password')).toBe('');
    expect(await page.locator('#account-error').count()).toBe(0);
    await close();
  }, 60_000);

  it('an unknown address is a page in the design for a browser, the JSON envelope for an API client', async () => {
    const context = await browser.newContext(DESKTOP);
    const page = await context.newPage();
    const answer = await page.goto(`${host.url}/no-such-page`);
    expect(answer?.status()).toBe(404);
    expect(answer?.headers()['content-type']).toMatch(/^text\/html/);
    expect(await page.textContent('#error-title')).toBe('Page not found');
    expect(await page.locator('header.topbar a.brand').count()).toBe(1);
    expect(await page.textContent('body')).not.toContain('"error"');
    await page.waitForSelector('#account-nav[data-session="signed-out"]');
    // A form's own route opened in the address bar (GET on a POST route): a page too, at 405.
    const wrongMethod = await page.goto(`${host.url}/api/auth/password/login`);
    expect(wrongMethod?.status()).toBe(405);
    expect(await page.textContent('#error-title')).toBe('Not available this way');
    await context.close();
    const api = await fetch(`${host.url}/no-such-page`, { headers: { accept: 'application/json' } });
    expect(api.status).toBe(404);
    expect(await api.json()).toEqual({ error: { code: 'not_found', message: 'no route matches this path' } });
    expect((await (await fetch(`${host.url}/no-such-page`)).json()) as unknown).toMatchObject({ error: { code: 'not_found' } });
  }, 60_000);

  it('/api/docs renders its Markdown: the status table is a table, no pipes or backticks', async () => {
    const context = await browser.newContext(DESKTOP);
    const page = await context.newPage();
    await page.goto(`${host.url}/api/docs`);
    expect(await page.locator('header .intro table tr').count()).toBeGreaterThan(10);
    const intro = (await page.textContent('header .intro')) ?? '';
    expect(intro).not.toContain('|---|');
    expect(intro).not.toContain('`');
    expect(await page.locator('header .intro code', { hasText: 'not_found' }).count()).toBeGreaterThan(0);
    await context.close();
  }, 60_000);
});
