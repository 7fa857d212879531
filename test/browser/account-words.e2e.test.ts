/**
 * The account pages in the words a user reads, in Chromium against the real host, on a phone
 * (375×812) and a desktop: a long email wraps after its `@` and never inside its local part, with
 * no text overflowing; the sign-in method in words ("Password", not "aal1"); each session named by
 * browser and system as its user agent tells them; a refused new password says its one reason.
 */
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, launchChromium, openPage, SMALL_PHONE } from '../support/browser.ts';
import { startHost, type HostProcess } from '../../harness/host-process.ts';
import { requireTool } from '../../harness/tools.ts';

const chromiumTool = requireTool('chromium');
const PASSWORD = 'correct horse battery staple';
const PHONE_375: BrowserContextOptions = {
  ...SMALL_PHONE,
  userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
};
const SIZES = [
  ['phone', PHONE_375, 'Safari on iOS'],
  ['desktop', DESKTOP, 'Chrome on Linux'],
] as const;
let serial = 0;
/**
 * Local parts that fit a phone's line on their own, and domains that do not fit after them; the
 * second's hyphen is where a browser would break the domain if left to itself.
 */
const longEmail = () => `margaret.hamilton.${++serial}${Date.now().toString(36)}@guidance-computer.apollo.example.org`;
const hyphenEmail = () => `ada.${++serial}${Date.now().toString(36).slice(-4)}@analytical-engine.example.org`;

/** Every element's box inside the viewport (visually hidden text aside). */
async function textOverflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    return [...document.body.querySelectorAll<HTMLElement>('*')]
      .filter((element) => !element.closest('.visually-hidden') && element.getClientRects().length > 0)
      .filter((element) => {
        const box = element.getBoundingClientRect();
        return box.left < -0.5 || box.right > width + 0.5;
      })
      .map((element) => `${element.tagName.toLowerCase()}#${element.id}.${element.className}: ${element.textContent?.slice(0, 40)}`);
  });
}

/** The offsets in `selector`'s text where a new line starts. */
async function lineStarts(page: Page, selector: string): Promise<{ text: string; starts: number[] }> {
  return page.evaluate((s) => {
    const root = document.querySelector(s);
    if (!root) throw new Error(`${s} is missing`);
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    let text = '';
    let lastTop: number | undefined;
    const starts: number[] = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (let i = 0; i < (node.textContent ?? '').length; i++) {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const top = range.getClientRects()[0]?.top;
        if (top !== undefined && lastTop !== undefined && top > lastTop + 2) starts.push(text.length);
        if (top !== undefined) lastTop = top;
        text += node.textContent?.[i] ?? '';
      }
    }
    return { text, starts };
  }, selector);
}

describe.skipIf(!chromiumTool)('account pages in words, phone and desktop', () => {
  let host: HostProcess;
  let browser: Browser;

  beforeAll(async () => {
    [host, browser] = await Promise.all([startHost({ args: ['--shutdown-grace-ms', '300'] }), launchChromium(chromiumTool!)]);
  });
  afterAll(async () => {
    await browser?.close();
    await host?.stop();
  });

  /** Registers and signs in through the forms, in a browser with these options; ends on /dashboard. */
  async function signedInBrowser(email: string, options: BrowserContextOptions) {
    const watched = await openPage(browser, `${host.url}/login`, options);
    const { page } = watched;
    await page.fill('#register-email', email);
    await page.fill('#register-password', PASSWORD);
    await Promise.all([page.waitForURL(/\/login\?notice=registered/), page.click('#register-form button[type=submit]')]);
    await page.fill('#login-password', PASSWORD);
    await Promise.all([page.waitForURL(`${host.url}/dashboard`), page.click('#login-form button[type=submit]')]);
    await page.waitForSelector('html[data-ready="true"]');
    return watched;
  }

  for (const [size, options, device] of SIZES) {
    it(`${size}: the email wraps after its @, nothing overflows, the method is in words and the session is "${device}"`, async () => {
      const other = await signedInBrowser(hyphenEmail(), options);
      const email = longEmail();
      const watched = await signedInBrowser(email, options);
      const { page } = watched;

      for (const [shown, typed] of [
        [other.page, (await other.page.textContent('#signed-in-as strong')) ?? ''],
        [page, email],
      ] as const) {
        const { text, starts } = await lineStarts(shown, '#signed-in-as strong');
        expect(text).toBe(typed);
        const at = typed.indexOf('@');
        const domainDots = [...typed.matchAll(/\./g)].map((m) => m.index).filter((i) => i > at);
        // A line may start only after the @ or at a dot of the domain: never inside a word.
        for (const start of starts) expect([at + 1, ...domainDots], `line starts at "${typed.slice(start)}"`).toContain(start);
        if (size === 'phone') expect(starts.length).toBeGreaterThan(0);
        expect(await textOverflowing(shown)).toEqual([]);
      }
      expect(other.problems).toEqual([]);
      await other.close();

      const facts = (await page.textContent('.facts')) ?? '';
      expect(facts).toContain('Signed in withPassword');
      expect(facts).not.toMatch(/aal\d|Assurance/);
      expect(await page.textContent('.session[data-current="true"] .session-device')).toBe(`${device}This browser`);
      expect(watched.problems).toEqual([]);
      await watched.close();
    });

    it(`${size}: a refused new password says its one reason, with and without JavaScript`, async () => {
      for (const javaScriptEnabled of [true, false]) {
        const context = await browser.newContext({ ...options, javaScriptEnabled });
        const page = await context.newPage();
        const refused = async (password: string): Promise<string | null> => {
          await page.goto(`${host.url}/login`);
          await page.fill('#register-email', longEmail());
          await page.fill('#register-password', password);
          // `minlength` would stop the browser first; the server's answer is under test.
          await page.evaluate(() => document.getElementById('register-password')?.removeAttribute('minlength'));
          // A refused form goes back to /login (post/redirect/get), the reason beside the field.
          await Promise.all([page.waitForURL(/\/login\?error=validation&form=register&reason=/), page.click('#register-form button[type=submit]')]);
          return page.textContent('#register-password-error');
        };
        expect(await refused('short')).toBe('Use at least 12 characters.');
        expect(await refused('x'.repeat(1025))).toBe('Use at most 1024 characters.');
        // U+0378 is unassigned in Unicode: the service cannot normalize it.
        expect(await refused('a long passphrase \u0378')).toBe('This password contains a rare symbol the service cannot accept. Replace it with another character.');
        expect(await textOverflowing(page)).toEqual([]);
        await context.close();
      }
    });
  }
});
