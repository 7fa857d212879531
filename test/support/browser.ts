/**
 * Chromium through playwright-core for browser tests (Debian's /usr/bin/chromium; playwright's
 * own browser downloads are not available here). Pages record console errors and failed
 * requests so a test can assert there were none.
 */
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import type { Tool } from '../../harness/tools.ts';

export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export function launchChromium(tool: Tool): Promise<Browser> {
  return chromium.launch({ executablePath: tool.path, args: CHROMIUM_ARGS, headless: true });
}

export interface WatchedPage {
  page: Page;
  /** console errors, uncaught page errors and failed or 4xx/5xx requests, as text */
  problems: string[];
  close(): Promise<void>;
}

export const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 860 }, deviceScaleFactor: 1 };
export const PHONE: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
  userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36',
};

/** The narrowest common phone (375×812); give it a userAgent where the test needs one. */
export const SMALL_PHONE: BrowserContextOptions = { viewport: { width: 375, height: 812 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

/** A fresh context (own cache and storage) with one page that records every problem. */
export async function openPage(browser: Browser, url: string, options: BrowserContextOptions = DESKTOP): Promise<WatchedPage> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => {
    // An EventSource cut when the page closes is not a failure of the page.
    if (request.failure()?.errorText === 'net::ERR_ABORTED' && request.url().includes('/api/counter/stream')) return;
    problems.push(`request failed: ${request.method()} ${request.url()} ${request.failure()?.errorText ?? ''}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.request().method()} ${response.url()}`);
  });
  await page.goto(url);
  await page.waitForSelector('html[data-ready="true"]');
  return { page, problems, close: () => context.close() };
}

/** The count as shown (typographic minus and thin-space grouping undone). */
export async function shownCount(page: Page): Promise<number> {
  const text = (await page.locator('#count').textContent()) ?? '';
  return Number(text.replace(/\u2212/g, '-').replace(/[\s\u2009]/g, ''));
}
