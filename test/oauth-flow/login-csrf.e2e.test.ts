/**
 * Login CSRF / session swapping (RFC 9700 §4.7), in Chromium against the local provider, for
 * each provider: the attacker starts a sign-in in their own browser and stops before following
 * the provider's answer (the callback URL, or provider_c's form_post). The victim's browser,
 * made to open that URL (or to submit that form), must not be signed in: 403
 * `oauth_browser_mismatch`, the error page, no session cookie, logged with its code. The state is
 * not consumed: the attacker's own browser then completes its sign-in.
 */
import type { Browser, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { requireTool } from '../../harness/tools.ts';
import { eventCounts, expectNoSecretsLogged, PROVIDERS, SESSION_COOKIE, type Service, withServiceAndBrowser } from './support.ts';

const chromiumTool = requireTool('chromium');

/** An auto-submitting form_post page, as a hostile site would serve it to the victim. */
function formPostPage(action: string, body: string): string {
  const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  const inputs = [...new URLSearchParams(body)].map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`).join('');
  return `<form method="post" action="${escapeHtml(action)}">${inputs}</form><script>document.forms[0].submit()</script>`;
}

describe.skipIf(!chromiumTool)("login CSRF: an attacker's callback opened in the victim's browser", () => {
  let service: Service;
  let browser: Browser;
  withServiceAndBrowser(chromiumTool, (s, b) => {
    service = s;
    browser = b;
  });

  it.each(PROVIDERS)("%s: the victim is not signed in; the attacker's own browser still completes", async (provider) => {
    const sessionsBefore = (await eventCounts(service.host.url))['auth_session_issued']!;

    // The attacker's browser: start, the provider approves, and the callback is held back.
    // provider_c's form_post is a navigation of its own, which page.route can hold. Playwright
    // does not route the hops of a redirect chain, so for the query providers the attacker's
    // context walks start → provider by its own request API (same cookie jar as its pages).
    const attacker = await browser.newContext();
    const attackerPage = await attacker.newPage();
    attackerPage.setDefaultTimeout(30_000);
    let held: { route: Route | undefined; url: string; method: string; body: string | null } | undefined;
    let attackerDone: Promise<unknown> = Promise.resolve();
    const startUrl = `${service.host.url}/api/auth/oauth/${provider}/start?next=%2Fdashboard`;
    if (provider === 'provider_c') {
      let heldSignal!: () => void;
      const heldNow = new Promise<void>((resolve) => (heldSignal = resolve));
      await attackerPage.route(`**/api/auth/oauth/${provider}/callback**`, (route) => {
        held = { route, url: route.request().url(), method: route.request().method(), body: route.request().postData() };
        heldSignal();
      });
      attackerDone = attackerPage.goto(startUrl);
      await heldNow;
    } else {
      const started = await attacker.request.get(startUrl, { maxRedirects: 0 });
      expect(started.status()).toBe(302);
      const approved = await attacker.request.get(started.headers()['location']!, { maxRedirects: 0 });
      expect(approved.status()).toBe(302);
      held = { route: undefined, url: approved.headers()['location']!, method: 'GET', body: null };
    }
    expect(held!.method).toBe(provider === 'provider_c' ? 'POST' : 'GET');
    for (const value of new URL(held!.url).searchParams.values()) service.secretsSeen.add(value);
    for (const value of new URLSearchParams(held!.body ?? '').values()) if (value.length < 200) service.secretsSeen.add(value);

    // The victim's browser gets the callback (a link, or an auto-submitting form on a hostile page).
    const victim = await browser.newContext();
    const victimPage = await victim.newPage();
    victimPage.setDefaultTimeout(30_000);
    const answered = victimPage.waitForResponse((r) => r.url().startsWith(`${service.host.url}/api/auth/oauth/${provider}/callback`));
    if (held!.method === 'GET') await victimPage.goto(held!.url);
    else await victimPage.setContent(formPostPage(held!.url, held!.body ?? ''));
    const refused = await answered;
    expect(refused.status()).toBe(403);
    await victimPage.waitForSelector('[role=alert]');
    expect(await victimPage.textContent('[role=alert]')).toContain('another browser');
    expect((await victim.cookies(service.host.url)).find((c) => c.name === SESSION_COOKIE)).toBeUndefined();
    await victimPage.goto(`${service.host.url}/api/auth/session`);
    // biome-ignore lint/performance/useDomNodeTextContent: Playwright's Locator.innerText(), not the DOM property.
    expect(JSON.parse(await victimPage.locator('body').innerText())).toMatchObject({ authenticated: false });
    expect((await eventCounts(service.host.url))['auth_session_issued']).toBe(sessionsBefore);
    expect(
      service.host
        .logs()
        .filter((l) => l['reason'] === 'oauth_browser_mismatch')
        .at(-1),
    ).toMatchObject({ code: 'forbidden', provider, detail: 'absent' });

    // Nothing was consumed: the attacker's browser, which holds the binding, completes.
    if (held!.route) await held!.route.continue();
    else await attackerPage.goto(held!.url);
    await attackerDone;
    await attackerPage.waitForURL(`${service.host.url}/dashboard`);
    expect(await attackerPage.getAttribute('#method', 'data-method')).toBe(`oauth:${provider}`);
    expect((await eventCounts(service.host.url))['auth_session_issued']).toBe(sessionsBefore + 1);
    const binding = (await attacker.cookies(service.host.url)).find((c) => c.name === 'wasi_oauth_binding');
    expect(binding).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    service.secretsSeen.add(binding!.value);
    await Promise.all([attacker.close(), victim.close()]);
  });

  it('no code, state, binding or session id in the host output', () => {
    expectNoSecretsLogged(service);
  });
});
