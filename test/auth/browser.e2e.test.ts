/**
 * In Chromium (playwright-core, the system browser): register on /login, land on /dashboard,
 * sign out, get sent away from /dashboard, sign in again with the form, all without JavaScript
 * on our side (plain form posts). Checks the cookie the browser stored.
 */
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTool } from '../../harness/tools.ts';
import { startHost, type HostProcess } from '../../harness/host-process.ts';
import { PASSWORD, uniqueEmail } from './support.ts';

const browserTool = requireTool('chromium');

describe.skipIf(!browserTool)('password sign-in in Chromium', () => {
  let host: HostProcess;
  let browser: Browser;

  beforeAll(async () => {
    [host, browser] = await Promise.all([
      startHost(),
      chromium.launch({
        executablePath: browserTool!.path,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      }),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await host?.stop();
  });

  it('registers, sees /dashboard, logs out, and logs in again', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    const email = uniqueEmail('browser');

    // /dashboard without a session goes to /login?next=/dashboard
    await page.goto(`${host.url}/dashboard`);
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/dashboard');

    // Registration never signs in (it must not tell a free email from a taken one, docs/security.md):
    // it lands on /login with a neutral notice, the email kept; then sign in.
    await page.fill('#register-form input[name=email]', email);
    await page.fill('#register-form input[name=password]', PASSWORD);
    await Promise.all([page.waitForURL(/\/login\?notice=registered/), page.click('#register-form button[type=submit]')]);
    expect((await context.cookies(host.url)).some((c) => c.name === 'wasi_auth_dev_session')).toBe(false);
    expect(await page.inputValue('#login-form input[name=email]')).toBe(email);
    await page.fill('#login-form input[name=password]', PASSWORD);
    await Promise.all([page.waitForURL(`${host.url}/dashboard`), page.click('#login-form button[type=submit]')]);
    expect(await page.textContent('#signed-in-as')).toContain(email);

    const cookie = (await context.cookies(host.url)).find((c) => c.name === 'wasi_auth_dev_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', secure: false, path: '/' });
    const session = await page.evaluate(async () => (await fetch('/api/auth/session')).json());
    expect(session).toMatchObject({ authenticated: true, email });
    // HttpOnly: page scripts cannot read it.
    expect(await page.evaluate(() => document.cookie)).not.toContain('wasi_auth_dev_session');

    await Promise.all([page.waitForURL(`${host.url}/login`), page.click('#logout-form button[type=submit]')]);
    expect((await context.cookies(host.url)).some((c) => c.name === 'wasi_auth_dev_session')).toBe(false);
    await page.goto(`${host.url}/dashboard`);
    expect(new URL(page.url()).pathname).toBe('/login');

    // A wrong password shows the error on /login; the right one goes to /dashboard.
    await page.fill('#login-form input[name=email]', email);
    await page.fill('#login-form input[name=password]', 'not the password');
    await Promise.all([page.waitForURL(/\/login\?error=invalid_credentials/), page.click('#login-form button[type=submit]')]);
    expect(await page.textContent('[role=alert]')).toContain('Invalid email or password.');
    await page.fill('#login-form input[name=email]', email);
    await page.fill('#login-form input[name=password]', PASSWORD);
    await Promise.all([page.waitForURL(`${host.url}/dashboard`), page.click('#login-form button[type=submit]')]);
    expect(await page.textContent('#signed-in-as')).toContain(email);
    await context.close();
  });
});
