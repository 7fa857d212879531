/**
 * The browser part of the interactive smoke (`npm run oauth:browser-smoke`): in a fresh Chromium context, open
 * BASE_URL/login, click the provider's button and wait (up to the deadline) until the operator
 * has finished the provider login and the browser is back on BASE_URL/dashboard. Watches the
 * navigation: the first page off the service (the provider's authorization endpoint) and the
 * exact request the provider sent back to the callback (GET URL, or form_post body), which the
 * smoke replays. Nothing here prints: the caller decides what is safe to say.
 */
import type { Browser, Request } from 'playwright-core';
import { callbackPath, type ProviderId } from '../../../src/auth/oauth/provider-ids.ts';
import { SESSION_COOKIE_NAME } from './params.ts';

export interface CapturedCallback {
  url: string;
  method: string;
  body: string | null;
  contentType: string | undefined;
}

export interface BrowserLogin {
  /** providers with a button on /login, in page order */
  buttons: string[];
  /** the /login page answered 200 */
  loginPageOk: boolean;
  /** the provider's button was there and was clicked */
  clicked: boolean;
  /** origin of the first page the browser left the service for */
  providerOrigin: string | undefined;
  callback: CapturedCallback | undefined;
  reachedDashboard: boolean;
  /** where the browser was when the wait ended (origin + path, and an `error` code if any) */
  lastPlace: string;
  cookie: { value: string; httpOnly: boolean; secure: boolean; sameSite: string } | undefined;
}

export async function loginThroughBrowser(browser: Browser, baseUrl: string, provider: ProviderId, timeoutMs: number, onWaiting: () => void): Promise<BrowserLogin> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const result: BrowserLogin = {
    buttons: [],
    loginPageOk: false,
    clicked: false,
    providerOrigin: undefined,
    callback: undefined,
    reachedDashboard: false,
    lastPlace: '',
    cookie: undefined,
  };
  const callbackUrl = `${baseUrl}${callbackPath(provider)}`;
  page.on('request', (request: Request) => {
    if (!request.isNavigationRequest() || request.frame() !== page.mainFrame()) return;
    const url = new URL(request.url());
    if (url.origin !== baseUrl && result.providerOrigin === undefined && result.callback === undefined) result.providerOrigin = url.origin;
    if (`${url.origin}${url.pathname}` === callbackUrl && result.callback === undefined) {
      result.callback = { url: request.url(), method: request.method(), body: request.postData(), contentType: request.headers()['content-type'] };
    }
  });
  try {
    const response = await page.goto(`${baseUrl}/login`);
    result.loginPageOk = response?.status() === 200;
    result.buttons = await page.locator('a[data-provider]').evaluateAll((links) => links.map((a) => a.getAttribute('data-provider') ?? ''));
    const button = page.locator(`a[data-provider="${provider}"]`);
    if ((await button.count()) !== 1) return result;
    onWaiting();
    await button.click();
    result.clicked = true;
    try {
      await page.waitForURL((url) => url.origin === baseUrl && url.pathname === '/dashboard', { timeout: timeoutMs, waitUntil: 'load' });
      result.reachedDashboard = true;
    } catch {
      // the deadline passed: report where the browser is
    }
    const here = new URL(page.url());
    const error = here.searchParams.get('error');
    result.lastPlace = `${here.origin}${here.pathname}${error && /^[a-z_]{1,40}$/.test(error) ? ` (error=${error})` : ''}`;
    const cookie = (await context.cookies(baseUrl)).find((c) => c.name === SESSION_COOKIE_NAME);
    if (cookie) result.cookie = { value: cookie.value, httpOnly: cookie.httpOnly, secure: cookie.secure, sameSite: cookie.sameSite };
    return result;
  } finally {
    await context.close();
  }
}
