/**
 * The service's mails as a person gets them, through a real SMTP server (aiosmtpd) and read in
 * Chromium: multipart/alternative with a plain-text and an HTML part that both name the service
 * (APP_NAME), the HTML readable with images off (no image at all) and its link working; the Date
 * header is when the message was queued. A returning user who registers again sees the same page
 * as anyone, and their address gets "You already have an account" with the ways back in.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, openPage } from '../support/browser.ts';
import type { HostProcess } from '../../harness/host-process.ts';
import { startMailBrowserHost, type MailBrowserHost } from '../support/mail-browser-host.ts';
import type { SmtpSink } from '../support/smtp-sink.ts';
import { requireTool } from '../../harness/tools.ts';
import { PASSWORD, register, uniqueEmail } from '../auth/support.ts';

const chromiumTool = requireTool('chromium');
const python = requireTool('aiosmtpd');
const APP = 'Tally Club';

describe.skipIf(!chromiumTool || !python)('mails that belong to the service', () => {
  let setup: MailBrowserHost;
  let sink: SmtpSink;
  let host: HostProcess;
  let browser: Browser;

  beforeAll(async () => {
    setup = await startMailBrowserHost(python!, chromiumTool!, { env: { APP_NAME: APP } });
    ({ sink, host, browser } = setup);
  }, 60_000);
  afterAll(() => setup?.stop());

  /** Registers `email` through the /login form and answers the notice the page shows. */
  async function registerInBrowser(email: string): Promise<string> {
    const { page, close } = await openPage(browser, `${host.url}/login`);
    await page.fill('#register-email', email);
    await page.fill('#register-password', PASSWORD);
    await Promise.all([page.waitForURL(/\/login\?notice=registered/), page.click('#register-form button[type=submit]')]);
    const notice = (await page.textContent('#registered-notice')) ?? '';
    await close();
    return notice;
  }

  it('a verification mail is multipart/alternative, names the service in both parts, and is dated when queued', async () => {
    const email = uniqueEmail('multipart');
    const before = Date.now();
    await registerInBrowser(email);
    const mail = await sink.waitFor((m) => m.envelope_to.includes(email) && m.subject === 'Confirm your email address');
    expect(mail.content_type).toBe('multipart/alternative');
    expect(mail.from).toContain(APP);
    expect(mail.text).toContain(APP);
    expect(mail.html).toContain(APP);
    const date = Date.parse(mail.date);
    // RFC 5322 dates have whole seconds.
    expect(date).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(date).toBeLessThanOrEqual(Date.now());
    // The HTML part in Chromium with images blocked: it reads the same, and its button is the text part's link.
    const context = await browser.newContext({ ...DESKTOP, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.route('**/*', (route) => route.abort());
    await page.setContent(mail.html);
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.textContent('body')).toContain(`a ${APP} account`);
    const href = await page.getAttribute('a', 'href');
    expect(mail.text).toContain(href!);
    expect(href).toMatch(/\/verify-email\?token=[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/);
    await context.close();
  }, 60_000);

  it('registering a taken address: the same page as a new one, and its owner is mailed the way back in', async () => {
    const { email } = await register(host.url);
    const fresh = uniqueEmail('fresh');
    const from = sink.messages().length;
    expect(await registerInBrowser(email)).toBe(await registerInBrowser(fresh));
    const mail = await sink.waitFor((m) => m.envelope_to.includes(email), { from });
    expect(mail.subject).toBe('You already have an account');
    expect(mail.text).toContain(`${host.url}/login`);
    expect(mail.text).toContain(`${host.url}/forgot-password`);
    expect(mail.text).toContain(APP);
    expect(mail.html).toContain(`${host.url}/forgot-password`);
    // The new address got its verification mail; the taken one this mail once (besides its own verification at sign-up).
    await sink.waitFor((m) => m.envelope_to.includes(fresh) && m.subject === 'Confirm your email address', { from });
    expect(sink.messages().filter((m) => m.envelope_to.includes(email) && m.subject !== 'Confirm your email address')).toHaveLength(1);
  }, 90_000);
});
