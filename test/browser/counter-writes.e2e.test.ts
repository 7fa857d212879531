/**
 * The counter page in Chromium with COUNTER_WRITES=signed-in: signed out it says "Sign in to change
 * the count" (buttons disabled) instead of failing; signed in its buttons work and the ledger marks
 * the user's own events; when the session ends while the page is open, a press brings the same
 * words back, not an error. A second browser context signed in as nobody sees the first user's
 * events without the mark.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type HostProcess } from '../../harness/host-process.ts';
import { requireTool } from '../../harness/tools.ts';
import { register, SESSION_COOKIE, uniqueEmail } from '../auth/support.ts';
import { DESKTOP, launchChromium, shownCount } from '../support/browser.ts';

const chromiumTool = requireTool('chromium');

describe.skipIf(!chromiumTool)('counter page with COUNTER_WRITES=signed-in in Chromium', () => {
  let host: HostProcess;
  let browser: Browser;

  beforeAll(async () => {
    [host, browser] = await Promise.all([startHost({ env: { COUNTER_WRITES: 'signed-in' } }), launchChromium(chromiumTool!)]);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await host?.stop();
  });

  /** A fresh context, signed in with `sessionId` when given, on the counter page once its session is known. */
  async function open(sessionId?: string): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext(DESKTOP);
    if (sessionId !== undefined) await context.addCookies([{ name: SESSION_COOKIE, value: sessionId, url: host.url, httpOnly: true, sameSite: 'Lax' }]);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(host.url);
    await page.waitForSelector('html[data-ready="true"]');
    await page.waitForSelector(`#account-nav[data-session="${sessionId === undefined ? 'signed-out' : 'signed-in'}"]`);
    return { context, page };
  }

  it('signed out: says "Sign in to change the count", linking to /login, with the buttons disabled', async () => {
    const { context, page } = await open();
    await page.waitForSelector('#writes-note:not([hidden])');
    expect(await page.locator('#writes-sign-in').textContent()).toBe('Sign in to change the count');
    expect(new URL((await page.locator('#writes-sign-in').getAttribute('href'))!, host.url).pathname).toBe('/login');
    for (const id of ['#increment-one', '#decrement-one', '#reset', '#batch-increment', '#batch-decrement']) expect(await page.locator(id).isDisabled(), id).toBe(true);
    expect(await page.locator('#error-panel').isHidden()).toBe(true);
    await context.close();
  });

  it('signed in: the buttons change the count and the ledger marks the user’s own events', async () => {
    const user = await register(host.url, uniqueEmail('page-writer'));
    const { context, page } = await open(user.sessionId);
    expect(await page.locator('#writes-note').isHidden()).toBe(true);
    const before = await shownCount(page);
    await page.click('#increment-one');
    await page.waitForSelector(`#count[data-count="${before + 1}"]`);
    await page.waitForFunction(() => document.querySelector('#ledger li')?.textContent?.includes('you'));
    expect(await page.locator('#ledger li').first().textContent()).toMatch(/\+1 → \d+ · you/);

    // Another browser, signed out, sees the same event without the mark.
    const other = await open();
    await other.page.waitForSelector(`#count[data-count="${before + 1}"]`);
    expect(await other.page.locator('#ledger li').first().textContent()).not.toContain('you');
    await other.context.close();
    await context.close();
  });

  it('a session that ends while the page is open: the press brings the sign-in words back, not an error', async () => {
    const user = await register(host.url, uniqueEmail('page-logout'));
    const { context, page } = await open(user.sessionId);
    const before = await shownCount(page);
    const logout = await fetch(`${host.url}/api/auth/logout`, { method: 'POST', headers: { cookie: `${SESSION_COOKIE}=${user.sessionId}` } });
    expect(logout.status).toBe(200);
    await page.click('#increment-one');
    await page.waitForSelector('#writes-note:not([hidden])');
    expect(await page.locator('#writes-sign-in').textContent()).toBe('Sign in to change the count');
    expect(await page.locator('#error-panel').isHidden()).toBe(true);
    expect(await page.locator('#increment-one').isDisabled()).toBe(true);
    expect(await shownCount(page)).toBe(before);
    await context.close();
  });
});
