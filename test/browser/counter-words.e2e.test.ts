/**
 * The counter page's numbers and words, in Chromium against the real host, on a phone (375×812)
 * and a desktop: the batch card's text, field, slider and buttons agree with what the API accepts
 * (1 to 2 147 483 647) and the largest amount stays inside its button; the ledger numbers the
 * counter's own revisions (other streams' events do not show as gaps) and says each event in
 * words; times are in the browser's zone, like the account page's.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, launchChromium, openPage, SMALL_PHONE } from '../support/browser.ts';
import { startHost, type HostProcess } from '../../harness/host-process.ts';
import { requireTool } from '../../harness/tools.ts';

const chromiumTool = requireTool('chromium');
const ZONE = { locale: 'en-GB', timezoneId: 'Asia/Tokyo' } as const;
const SIZES = [
  ['phone', { ...SMALL_PHONE, ...ZONE }],
  ['desktop', { ...DESKTOP, ...ZONE }],
] as const;
const MAX = 2_147_483_647;

/** `inner`'s box lies inside `outer`'s (half a pixel of rounding allowed). */
async function inside(page: Page, inner: string, outer: string): Promise<boolean> {
  return page.evaluate(
    ([i, o]) => {
      const a = document.querySelector(i)!.getBoundingClientRect();
      const b = document.querySelector(o)!.getBoundingClientRect();
      return a.left >= b.left - 0.5 && a.right <= b.right + 0.5 && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;
    },
    [inner, outer] as const,
  );
}

describe.skipIf(!chromiumTool)('counter page numbers and words, phone and desktop', () => {
  let host: HostProcess;
  let browser: Browser;

  beforeAll(async () => {
    [host, browser] = await Promise.all([startHost({ args: ['--shutdown-grace-ms', '300'] }), launchChromium(chromiumTool!)]);
  });
  afterAll(async () => {
    await browser?.close();
    await host?.stop();
  });

  for (const [size, options] of SIZES) {
    it(`${size}: the batch card, field, slider and buttons agree with the API's range, and any amount fits its button`, async () => {
      const watched = await openPage(browser, host.url, options);
      const { page } = watched;
      // Any amount, in range or not, leaves its buttons inside the card and their text inside them.
      for (const amount of [String(MAX), String(MAX + 1), '99999999999999999999999999']) {
        await page.fill('#batch-amount', amount);
        for (const button of ['#batch-increment', '#batch-decrement']) {
          expect(await inside(page, button, '.batch'), `${button} with ${amount} in its card`).toBe(true);
          expect(await page.$eval(button, (b) => b.scrollWidth <= b.clientWidth), `${amount} in ${button}`).toBe(true);
        }
        expect(await page.getAttribute('#batch-amount', 'aria-invalid')).toBe(String(amount !== String(MAX)));
      }
      expect(await page.textContent('.batch .hint')).toBe('1–2\u202f147\u202f483\u202f647');
      expect(await page.getAttribute('#batch-amount', 'min')).toBe('1');
      expect(await page.getAttribute('#batch-amount', 'max')).toBe(String(MAX));

      // The slider follows the field, to the largest amount the API takes and back.
      await page.fill('#batch-amount', String(MAX));
      expect(await page.getAttribute('#batch-range', 'aria-valuetext')).toBe(String(MAX));
      expect(await page.evaluate(() => (document.getElementById('batch-range') as HTMLInputElement).value)).toBe(await page.getAttribute('#batch-range', 'max'));
      expect(await page.textContent('#batch-increment')).toBe('Add 2\u202f147\u202f483\u202f647');
      expect(await page.getAttribute('#batch-amount', 'aria-invalid')).toBe('false');
      await page.fill('#batch-amount', '25');
      expect(await page.getAttribute('#batch-range', 'aria-valuetext')).toBe('25');
      // ... and the field follows the slider over the whole range.
      await page.focus('#batch-range');
      await page.keyboard.press('End');
      expect(await page.inputValue('#batch-amount')).toBe(String(MAX));
      await page.keyboard.press('Home');
      expect(await page.inputValue('#batch-amount')).toBe('1');

      expect(watched.problems).toEqual([]);
      await watched.close();
    });

    it(`${size}: the ledger shows the counter's revisions and each event in words, at the browser's local time`, async () => {
      await fetch(`${host.url}/api/counter/reset`, { method: 'POST' });
      const before = (await (await fetch(`${host.url}/api/counter/view`)).json()) as { latest_events: Array<{ revision: number }> };
      const revision = before.latest_events[0]?.revision ?? 0;
      const post = (path: string, body?: unknown) =>
        fetch(`${host.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      // Registrations in between write other streams: the global sequence jumps, the revision does not.
      let serial = 0;
      const otherStream = () => post('/api/auth/password/register', { email: `ledger-${size}-${++serial}-${Date.now()}@example.com`, password: 'correct horse battery staple' });
      await post('/api/increment_count', { amount: 5 });
      await otherStream();
      await post('/api/increment_count', { amount: 7 });
      await otherStream();
      await post('/api/decrement_count', { amount: 2 });
      await post('/api/increment_count', { amount: MAX - 10 });

      const watched = await openPage(browser, host.url, options);
      const { page } = watched;
      await page.waitForSelector('#status[data-status="live"]');
      const rows = await page.$$eval('#ledger li', (items) =>
        items.map((item) => ({
          revision: item.querySelector('.event-rev')?.textContent,
          words: [...(item.querySelector('.event-change')?.childNodes ?? [])]
            .filter((n) => n.nodeType === Node.TEXT_NODE)
            .map((n) => n.textContent)
            .join(''),
          time: item.querySelector('time')?.textContent,
          datetime: item.querySelector('time')?.getAttribute('datetime'),
        })),
      );
      expect(rows.map((row) => [row.revision, row.words])).toEqual([
        [`#${revision + 4}`, `+2\u202f147\u202f483\u202f637 \u2192 2\u202f147\u202f483\u202f647`],
        [`#${revision + 3}`, '\u22122 \u2192 10'],
        [`#${revision + 2}`, '+7 \u2192 12'],
        [`#${revision + 1}`, '+5 \u2192 5'],
        [`#${revision}`, 'reset \u2192 0'],
      ]);
      expect(await page.textContent('#revision')).toBe(String(revision + 4));
      // Tokyo has no daylight saving: UTC+9 all year.
      for (const row of rows) {
        const local = new Intl.DateTimeFormat('en-GB', { timeStyle: 'medium', timeZone: 'Asia/Tokyo' }).format(Date.parse(row.datetime ?? ''));
        expect(row.time).toBe(local);
      }
      expect(await page.textContent('.ledger .hint')).toBe('newest first · times in Asia/Tokyo');
      const long = '#ledger li:first-child';
      expect(await inside(page, `${long} .event-change`, long)).toBe(true);
      expect(await inside(page, long, '.ledger')).toBe(true);

      // A new event arriving live gets the same words and local time.
      await post('/api/reset_count');
      await page.waitForSelector(`#ledger li:first-child .event-rev:text-is("#${revision + 5}")`);
      expect(await page.textContent('#ledger li:first-child .event-change')).toBe('Reset: reset \u2192 0');
      expect(await page.textContent('#ledger li:first-child time')).not.toContain('UTC');
      expect(watched.problems).toEqual([]);
      await watched.close();
    });
  }
});
