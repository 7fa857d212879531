/**
 * The counter page in Chromium against the real host and component: loading cleanly, the
 * buttons and the batch amount, the error panel, keyboard use and a phone-sized viewport.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPage, PHONE, shownCount, type WatchedPage } from '../support/browser.ts';
import { startHost, type HostProcess } from '../../harness/host-process.ts';
import { requireTool } from '../../harness/tools.ts';

const chromiumTool = requireTool('chromium');

/** Waits until the page shows `count` (the element's data-count mirrors the text the reader sees). */
async function countBecomes(page: Page, count: number, timeout = 5_000): Promise<void> {
  await page.waitForSelector(`#count[data-count="${count}"]`, { timeout });
  expect(await shownCount(page)).toBe(count);
}

describe.skipIf(!chromiumTool)('counter page in Chromium', () => {
  let host: HostProcess;
  let browser: Browser;
  let watched: WatchedPage;
  let page: Page;

  beforeAll(async () => {
    [host, browser] = await Promise.all([startHost({ args: ['--shutdown-grace-ms', '300'] }), launchChromium(chromiumTool!)]);
    watched = await openPage(browser, host.url);
    page = watched.page;
  });
  afterAll(async () => {
    await watched?.close();
    await browser?.close();
    await host?.stop();
  });

  it('loads with no console errors or failed requests and goes live', async () => {
    await page.waitForSelector('#status[data-status="live"]');
    expect(await page.title()).toBe('Counter');
    expect(await shownCount(page)).toBe(0);
    expect(await page.locator('#status-label').textContent()).toBe('Live');
    expect(await page.locator('#ledger-empty').isVisible()).toBe(true);
    expect(watched.problems).toEqual([]);
  });

  it('+1, −1 and Reset change the count by the right amounts and fill the ledger', async () => {
    await page.click('#increment-one');
    await countBecomes(page, 1);
    await page.click('#increment-one');
    await countBecomes(page, 2);
    await page.click('#decrement-one');
    await countBecomes(page, 1);
    await page.click('#reset');
    await countBecomes(page, 0);
    const rows = await page.locator('#ledger li').allTextContents();
    expect(rows).toHaveLength(4);
    // The counter's revision, the event in words (a screen reader also hears its kind), the local time.
    expect(rows[0]).toMatch(/^#4Reset: reset → 0\d{1,2}:\d\d:\d\d( [AP]M)?$/);
    expect(rows[1]).toMatch(/^#3Decrement: −1 → 1/);
    expect(await page.locator('#revision').textContent()).toBe('4');
    expect(await page.locator('#ledger-empty').isVisible()).toBe(false);
    expect(watched.problems).toEqual([]);
  });

  it('keeps the slider and the number field in step, and batch buttons use the amount', async () => {
    await page.fill('#batch-amount', '25');
    expect(await page.getAttribute('#batch-range', 'aria-valuetext')).toBe('25');
    expect(await page.locator('#batch-increment').textContent()).toBe('Add 25');
    await page.click('#batch-increment');
    await countBecomes(page, 25);

    // The slider by keyboard: Home is 1, then three steps right.
    await page.focus('#batch-range');
    await page.keyboard.press('Home');
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    expect(await page.inputValue('#batch-amount')).toBe('4');
    await page.click('#batch-decrement');
    await countBecomes(page, 21);

    // Past 9 the slider moves by tens, then hundreds: 1 … 9, 10, 20, …, 90, 100.
    await page.focus('#batch-range');
    for (let i = 0; i < 15; i++) await page.keyboard.press('ArrowRight');
    expect(await page.inputValue('#batch-amount')).toBe('100');
    await page.click('#batch-increment');
    await countBecomes(page, 121);
    const changes = await page.locator('#ledger .event-change').allTextContents();
    expect(changes.slice(0, 3)).toEqual(['Increment: +100 → 121', 'Decrement: −4 → 21', 'Increment: +25 → 25']);
    expect(watched.problems).toEqual([]);
  });

  it('shows the server’s validation error in the error panel for an invalid amount, and clears it after a success', async () => {
    const before = await shownCount(page);
    await page.fill('#batch-amount', '0');
    expect(await page.getAttribute('#batch-amount', 'aria-invalid')).toBe('true');
    await page.click('#batch-increment');
    await page.waitForSelector('#error-panel[data-code="validation"]', { state: 'visible' });
    expect(await page.locator('#error-message').textContent()).toBe('amount must be positive');
    expect(await page.getAttribute('#error-panel', 'role')).toBe('alert');
    expect(await shownCount(page)).toBe(before);

    await page.fill('#batch-amount', '-3');
    await page.click('#batch-decrement');
    await page.waitForSelector('#error-panel[data-code="validation"]', { state: 'visible' });
    expect(await shownCount(page)).toBe(before);

    await page.fill('#batch-amount', '2');
    await page.click('#batch-decrement');
    await countBecomes(page, before - 2);
    await page.waitForSelector('#error-panel', { state: 'hidden' });
    // The rejected calls are the only failed requests (the browser logs each 400 on the console).
    expect(watched.problems.every((p) => /400/.test(p))).toBe(true);
    expect(watched.problems.filter((p) => p.startsWith('HTTP 400'))).toHaveLength(2);
    watched.problems.length = 0;
  });

  it('is usable by keyboard alone, with a visible focus ring', async () => {
    const before = await shownCount(page);
    await page.locator('body').click({ position: { x: 2, y: 2 } });
    await page.focus('#reset');
    await page.keyboard.press('Tab'); // → +1
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('increment-one');
    const ring = await page.evaluate(() => getComputedStyle(document.activeElement!).boxShadow);
    expect(ring).not.toBe('none');
    await page.keyboard.press('Enter');
    await countBecomes(page, before + 1);
    await page.keyboard.press('Space');
    await countBecomes(page, before + 2);
    expect(watched.problems).toEqual([]);
  });

  it('labels every control', async () => {
    const unlabeled = await page.evaluate(() =>
      [...document.querySelectorAll('button, input')]
        .filter((el) => {
          const labelled = el instanceof HTMLInputElement ? (el.labels?.length ?? 0) > 0 : (el.textContent ?? '').trim() !== '';
          return !labelled && !el.getAttribute('aria-label');
        })
        .map((el) => el.id),
    );
    expect(unlabeled).toEqual([]);
    expect(await page.getAttribute('#count', 'aria-live')).toBe('polite');
  });

  it('renders on a phone-sized viewport without horizontal scrolling', async () => {
    const phone = await openPage(browser, host.url, PHONE);
    try {
      await phone.page.waitForSelector('#status[data-status="live"]');
      const layout = await phone.page.evaluate(() => {
        const box = (id: string) => document.getElementById(id)!.getBoundingClientRect();
        return {
          viewport: window.innerWidth,
          scrollWidth: document.documentElement.scrollWidth,
          count: box('count'),
          buttons: ['decrement-one', 'reset', 'increment-one', 'batch-decrement', 'batch-increment'].map(box),
          fontSize: parseFloat(getComputedStyle(document.getElementById('count')!).fontSize),
        };
      });
      expect(layout.viewport).toBe(390);
      expect(layout.scrollWidth).toBeLessThanOrEqual(layout.viewport);
      expect(layout.fontSize).toBeGreaterThanOrEqual(64);
      for (const button of layout.buttons) {
        expect(button.height).toBeGreaterThanOrEqual(44); // touch target
        expect(button.right).toBeLessThanOrEqual(layout.viewport);
      }
      const before = await shownCount(phone.page);
      await phone.page.tap('#increment-one');
      await countBecomes(phone.page, before + 1);

      // The widest count there is (ten digits and a sign) still fits.
      await fetch(`${host.url}/api/counter/reset`, { method: 'POST' });
      await fetch(`${host.url}/api/counter/decrement?amount=2147483647`, { method: 'POST' });
      await countBecomes(phone.page, -2147483647);
      const wide = await phone.page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        count: document.getElementById('count')!.getBoundingClientRect(),
        lines: Math.round(document.getElementById('count')!.getBoundingClientRect().height / parseFloat(getComputedStyle(document.getElementById('count')!).lineHeight)),
      }));
      expect(wide.scrollWidth).toBeLessThanOrEqual(390);
      expect(wide.count.right).toBeLessThanOrEqual(390);
      expect(wide.lines).toBe(1);
      expect(phone.problems).toEqual([]);
    } finally {
      await phone.close();
    }
  });
});
