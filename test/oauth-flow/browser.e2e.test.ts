/**
 * In Chromium, for each provider: /login → the provider's button → the local provider (approves
 * at once; provider_c answers with an auto-submitting form_post) → /dashboard with the session
 * cookie; /api/auth/session authenticated; the OAuth event counts (identity linked, session issued) went up; replaying the
 * callback → 409 (the error page in the browser, `conflict` in JSON mode).
 */
import type { Browser, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { requireTool } from '../../harness/tools.ts';
import { eventCounts, expectNoSecretsLogged, OAUTH_EVENTS, PROVIDERS, SESSION_COOKIE, type Service, withServiceAndBrowser } from './support.ts';

const chromiumTool = requireTool('chromium');

describe.skipIf(!chromiumTool)('OAuth sign-in in Chromium', () => {
  let service: Service;
  let browser: Browser;
  withServiceAndBrowser(chromiumTool, (s, b) => {
    service = s;
    browser = b;
  });

  it.each(PROVIDERS)('%s: /login → provider → /dashboard, session, events, replay → 409', async (provider) => {
    const before = await eventCounts(service.host.url);
    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    let callback: Request | undefined;
    const providerRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes(`/api/auth/oauth/${provider}/callback`)) callback = request;
      if (request.url().startsWith(service.fixture.provider.url)) providerRequests.push(new URL(request.url()).pathname);
    });

    await page.goto(`${service.host.url}/login`);
    expect(await page.locator('#providers a[data-provider]').evaluateAll((links) => links.map((a) => a.getAttribute('data-provider')))).toEqual([...PROVIDERS]);
    await Promise.all([page.waitForURL(`${service.host.url}/dashboard`), page.click(`a[data-provider=${provider}]`)]);
    expect(providerRequests).toContain(`/${provider}/authorize`);
    expect(await page.textContent('#signed-in-as')).toContain(service.fixture.provider.user.email);
    expect(await page.getAttribute('#method', 'data-method')).toBe(`oauth:${provider}`);
    expect(await page.getAttribute('#providers', 'data-providers')).toContain(provider);
    // The session is named by the browser that signed in (headless Chromium on Linux), as after a password sign-in.
    expect(await page.textContent('.session[data-current="true"] .session-device')).toBe('Chrome on LinuxThis browser');

    const cookie = (await context.cookies(service.host.url)).find((c) => c.name === SESSION_COOKIE);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    service.secretsSeen.add(cookie!.value);
    const session = await page.evaluate(async () => (await fetch('/api/auth/session')).json());
    expect(session).toMatchObject({ authenticated: true, email: service.fixture.provider.user.email, method: `oauth:${provider}` });

    const after = await eventCounts(service.host.url);
    for (const kind of OAUTH_EVENTS) expect(after[kind], kind).toBeGreaterThan(before[kind]!);

    // Replay exactly what the provider sent back.
    expect(callback).toBeDefined();
    const isPost = callback!.method() === 'POST';
    expect(isPost).toBe(provider === 'provider_c');
    const body = callback!.postData() ?? undefined;
    for (const value of new URL(callback!.url()).searchParams.values()) service.secretsSeen.add(value);
    for (const value of new URLSearchParams(body ?? '').values()) if (value.length < 200) service.secretsSeen.add(value);

    const replay = await context.request.fetch(callback!.url(), {
      method: callback!.method(),
      headers: isPost ? { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' } : { accept: 'application/json' },
      ...(body !== undefined ? { data: body } : {}),
      maxRedirects: 0,
    });
    expect(replay.status()).toBe(409);
    expect((await replay.json()).error).toMatchObject({ code: 'conflict', reason: 'oauth_state_reused' });
    expect(replay.headers()['set-cookie']).toBeUndefined();

    if (!isPost) {
      // In the browser: the sign-in error page with the way back to /login; the session is untouched.
      const response = await page.goto(callback!.url());
      expect(response!.status()).toBe(409);
      expect(await page.textContent('[role=alert]')).toContain('already used');
      await Promise.all([page.waitForURL(`${service.host.url}/login`), page.click('#back-to-login')]);
      expect((await context.cookies(service.host.url)).find((c) => c.name === SESSION_COOKIE)?.value).toBe(cookie!.value);
    }
    await context.close();
  });

  it('no code, state, session id or secret in the host output', () => {
    expectNoSecretsLogged(service);
  });
});
