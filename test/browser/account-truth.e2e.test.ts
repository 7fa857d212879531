/**
 * The account page and its neighbours say what is true, in words people use, in Chromium against
 * the real host: with mail off no verification step is promised and a mailed-link page says why it
 * is not there; no stored names (`password`,
 * `passkey`, `oauth:…`), no raw user id and no word about providers when none is set up; the
 * header of a mailed-link page shows who is signed in; a passkey whose account was deleted is told
 * apart in words ("No account uses this passkey") with room between the words and the button.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPage } from '../support/browser.ts';
import { freePort, startHost, type HostProcess } from '../../harness/host-process.ts';
import { addPasskeyOnAccountPage, registerAndSignIn, verifyOnPage, withAuthenticator } from '../support/passkey-browser.ts';
import { linkIn, startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { requireTool } from '../../harness/tools.ts';
import { PASSWORD, uniqueEmail } from '../auth/support.ts';

const chromiumTool = requireTool('chromium');
const python = requireTool('aiosmtpd');

describe.skipIf(!chromiumTool || !python)('the account pages tell the truth', () => {
  let mailOff: HostProcess;
  let mailOn: HostProcess;
  let sink: SmtpSink;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    const port = await freePort();
    // The RP ID is the host of AUTH_PUBLIC_BASE_URL: localhost (WebAuthn refuses an IP address).
    base = `http://localhost:${port}`;
    sink = await startSmtpSink(python!);
    [mailOff, mailOn, browser] = await Promise.all([
      // `npm start`'s defaults: no AUTH_PUBLIC_BASE_URL, so no mail and no providers.
      startHost({ args: ['--shutdown-grace-ms', '300'] }),
      startHost({ port, args: ['--shutdown-grace-ms', '300'], env: { SMTP_URL: sink.url, AUTH_PUBLIC_BASE_URL: base } }),
      launchChromium(chromiumTool!),
    ]);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await Promise.all([mailOff?.stop(), mailOn?.stop()]);
    await sink?.stop();
  });

  it('with mail off, promises no mail; names no internal method, id or provider', async () => {
    const email = uniqueEmail('truth');
    const { page, problems, close } = await openPage(browser, `${mailOff.url}/login`);
    await page.fill('#register-email', email);
    await page.fill('#register-password', PASSWORD);
    await Promise.all([page.waitForURL(/\/login\?notice=registered/), page.click('#register-form button[type=submit]')]);
    await page.fill('#login-password', PASSWORD);
    await Promise.all([page.waitForURL(`${mailOff.url}/dashboard`), page.click('#login-form button[type=submit]')]);
    const text = (await page.textContent('main')) ?? '';
    expect(text).not.toContain('Not verified');
    expect(text).not.toContain('mailed');
    expect(await page.locator('#email-state, #resend-form').count()).toBe(0);
    expect(await page.textContent('#method')).toBe('Password');
    expect(await page.locator('main code').count()).toBe(0);
    const session = (await page.evaluate(async () => (await fetch('/api/auth/session')).json())) as { user_id: string };
    expect(await page.content()).not.toContain(session.user_id);
    expect(text).not.toMatch(/provider/i);
    expect(await page.locator('#delete-password').count()).toBe(1);
    expect(problems).toEqual([]);
    await close();
  }, 60_000);

  it('with mail off, a mailed-link page tells a browser why it is not there; an API client keeps the envelope', async () => {
    const { page, problems, close } = await openPage(browser, `${mailOff.url}/forgot-password`);
    expect(await page.textContent('#error-title')).toBe('This service sends no mail');
    expect(await page.textContent('#error-text')).toContain('Ask whoever runs it');
    expect(await page.getAttribute('#error-way-on', 'href')).toBe('/login');
    expect(await page.content()).not.toContain('"error"');
    // The 404 itself is a console error in Chromium; nothing else may be.
    expect(problems.filter((p) => !p.includes('404'))).toEqual([]);
    await close();
    const api = await fetch(`${mailOff.url}/forgot-password`, { headers: { accept: 'application/json' } });
    expect(api.status).toBe(404);
    expect(((await api.json()) as { error: { code: string } }).error.code).toBe('not_found');
  }, 60_000);

  it('the header of a mailed-link page shows the signed-in user', async () => {
    const email = uniqueEmail('header');
    const { page, close } = await openPage(browser, `${base}/login`);
    await registerAndSignIn(page, base, email);
    for (const path of ['/verify-email?token=x', '/reset-password?token=x', '/forgot-password']) {
      await page.goto(`${base}${path}`);
      expect(await page.getAttribute('#account-nav', 'data-session'), path).toBe('signed-in');
      expect(await page.textContent('#account-email'), path).toBe(email);
      expect(await page.isVisible('#sign-in-link'), path).toBe(false);
    }
    await close();
  }, 60_000);

  it('a passkey of a deleted account: "No account uses this passkey", apart from the button', async () => {
    const { context, page } = await withAuthenticator(browser);
    const email = uniqueEmail('gone');
    await registerAndSignIn(page, base, email);
    // A passkey is added to a verified address only.
    await verifyOnPage(page, base, linkIn(await sink.waitFor((m) => m.envelope_to.includes(email)), '/verify-email'));
    await addPasskeyOnAccountPage(page, 'Old key');
    await page.fill('#delete-password', PASSWORD);
    await Promise.all([page.waitForURL(`${base}/login?notice=account_deleted`), page.click('#delete-account-form button[type=submit]')]);
    await page.waitForSelector('html[data-ready="true"]');
    await page.click('#passkey-sign-in');
    const status = page.locator('#passkey-sign-in-status');
    await status.waitFor({ state: 'visible' });
    expect(await status.textContent()).toBe('No account uses this passkey. Sign in with your email and password, or create an account.');
    const gap = await page.evaluate(() => {
      const words = document.getElementById('passkey-sign-in-status')!.getBoundingClientRect();
      const button = document.getElementById('passkey-sign-in')!.getBoundingClientRect();
      return button.top - words.bottom;
    });
    expect(gap).toBeGreaterThanOrEqual(8);
    await context.close();
  }, 90_000);
});
