/**
 * Sign-in under the real `wasmtime serve` (the composed standalone component, file store), in
 * Chromium: password register → /login (neutral notice) → sign in → /dashboard → sign out → wrong password → sign in, and with a
 * non-ASCII password typed in another Unicode form; OAuth through
 * the local test provider (provider_a; provider_c with its signed client secret and form_post)
 * with the token exchange and JWKS fetched through wasi:http/outgoing-handler, ending on
 * /dashboard; replaying the callback answers 409.
 */
import type { Browser, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.ts';
import { freePort } from '../../harness/host-process.ts';
import { startOAuthFixture, type OAuthFixture } from '../support/oauth-provider/fixture.ts';
import { requireTool } from '../../harness/tools.ts';
import { startWasmtime, type WasmtimeProcess } from '../../harness/wasmtime-process.ts';
import { PASSWORD, uniqueEmail } from '../auth/support.ts';
import { SESSION_COOKIE } from '../oauth-flow/support.ts';

const wasmtime = requireTool('wasmtime');
const chromium = requireTool('chromium');

describe.skipIf(!wasmtime || !chromium)('sign-in under wasmtime serve in Chromium', () => {
  let server: WasmtimeProcess;
  let fixture: OAuthFixture;
  let browser: Browser;

  beforeAll(async () => {
    const port = await freePort();
    fixture = await startOAuthFixture(`http://127.0.0.1:${port}`);
    [server, browser] = await Promise.all([startWasmtime({ port, guestEnv: fixture.env }, wasmtime!.path), launchChromium(chromium!)]);
  }, 600_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await fixture?.provider.stop();
  });

  it('registers, sees /dashboard, signs out, refuses a wrong password and signs in again', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    const email = uniqueEmail('wasmtime');
    await page.goto(`${server.url}/login`);
    await page.fill('#register-form input[name=email]', email);
    await page.fill('#register-form input[name=password]', PASSWORD);
    await Promise.all([page.waitForURL(/\/login\?notice=registered/), page.click('#register-form button[type=submit]')]);
    expect(await page.inputValue('#login-form input[name=email]')).toBe(email);
    await page.fill('#login-form input[name=password]', PASSWORD);
    await Promise.all([page.waitForURL(`${server.url}/dashboard`), page.click('#login-form button[type=submit]')]);
    expect(await page.textContent('#signed-in-as')).toContain(email);

    await Promise.all([page.waitForURL(`${server.url}/login`), page.click('#logout-form button[type=submit]')]);
    expect((await context.cookies(server.url)).some((c) => c.name === SESSION_COOKIE)).toBe(false);

    await page.fill('#login-form input[name=email]', email);
    await page.fill('#login-form input[name=password]', 'not the password');
    await Promise.all([page.waitForURL(/\/login\?error=invalid_credentials/), page.click('#login-form button[type=submit]')]);
    await page.fill('#login-form input[name=email]', email);
    await page.fill('#login-form input[name=password]', PASSWORD);
    await Promise.all([page.waitForURL(`${server.url}/dashboard`), page.click('#login-form button[type=submit]')]);
    expect(await page.textContent('#signed-in-as')).toContain(email);
    const session = await page.evaluate(async () => (await fetch('/api/auth/session')).json());
    expect(session).toMatchObject({ authenticated: true, email, method: 'password' });
    await context.close();
  });

  it('registers with a non-ASCII password typed decomposed with full-width letters and signs in with it composed', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    const email = uniqueEmail('wasmtime-unicode');
    await page.goto(`${server.url}/login`);
    await page.fill('#register-form input[name=email]', email);
    await page.fill('#register-form input[name=password]', 'cle\u0301 ｆｕｌｌ-width staple');
    await Promise.all([page.waitForURL(/\/login\?notice=registered/), page.click('#register-form button[type=submit]')]);
    await page.fill('#login-form input[name=password]', 'cl\u00e9 full-width staple');
    await Promise.all([page.waitForURL(`${server.url}/dashboard`), page.click('#login-form button[type=submit]')]);
    expect(await page.textContent('#signed-in-as')).toContain(email);
    await context.close();
  });

  it.each(['provider_a', 'provider_c'])('%s: /login → provider → /dashboard; replaying the callback → 409', async (provider) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    let callback: Request | undefined;
    page.on('request', (request) => {
      if (request.url().includes(`/api/auth/oauth/${provider}/callback`)) callback = request;
    });
    await page.goto(`${server.url}/login`);
    await Promise.all([page.waitForURL(`${server.url}/dashboard`), page.click(`a[data-provider=${provider}]`)]);
    expect(await page.textContent('#signed-in-as')).toContain(fixture.provider.user.email);
    expect(await page.getAttribute('#method', 'data-method')).toBe(`oauth:${provider}`);

    expect(callback!.method()).toBe(provider === 'provider_c' ? 'POST' : 'GET');
    const body = callback!.postData() ?? undefined;
    const replay = await context.request.fetch(callback!.url(), {
      method: callback!.method(),
      headers: body !== undefined ? { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' } : { accept: 'application/json' },
      ...(body !== undefined ? { data: body } : {}),
      maxRedirects: 0,
    });
    expect(replay.status()).toBe(409);
    expect((await replay.json()).error).toMatchObject({ code: 'conflict', reason: 'oauth_state_reused' });
    await context.close();
  });
});
