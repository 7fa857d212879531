/**
 * Linking a provider from inside an account (docs/security.md, "The linking rule"), against the
 * real host, the local provider and a real SMTP server (the address is verified through the link
 * it receives). The happy path in Chromium: "Link provider_a" on the account page, then a provider
 * sign-in in a fresh browser lands in that account. The attacks over HTTP, each refused with
 * nothing linked: a start from another site, a callback in a browser whose session ended or
 * changed, a provider email that is unverified or another address, an identity linked to another
 * account, an account whose address is not verified.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTool } from '../../harness/tools.ts';
import { launchChromium } from '../support/browser.ts';
import { followAuthorization, type ProviderCallback } from '../support/oauth-provider/follow-authorization.ts';
import { linkIn, startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { PASSWORD, postJson, register, uniqueEmail } from '../auth/support.ts';
import { bindingCookieOf, eventCounts, expectFailure, expectNoSecretsLogged, SESSION_COOKIE, sessionCookieOf, startService, type Provider, type Service } from './support.ts';

const chromiumTool = requireTool('chromium');
const python = requireTool('aiosmtpd');

interface Account {
  email: string;
  sessionId: string;
  userId: string;
}

describe.skipIf(!python || !chromiumTool)('linking a provider from inside the account', () => {
  let sink: SmtpSink;
  let service: Service;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    sink = await startSmtpSink(python!);
    [service, browser] = await Promise.all([startService({ SMTP_URL: sink.url, AUTH_EMAIL_FROM: 'Counter <accounts@example.com>' }), launchChromium(chromiumTool!)]);
    base = service.host.url;
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await service?.stop();
    await sink?.stop();
  });

  const session = (sessionId: string) => `${SESSION_COOKIE}=${sessionId}`;
  const linkedCount = async () => (await eventCounts(base))['auth_external_identity_linked'] ?? 0;
  const dashboard = async (sessionId: string) => (await fetch(`${base}/dashboard`, { headers: { cookie: session(sessionId) } })).text();

  /** A password account; verified through the link the SMTP server received unless `verified` is false. */
  async function account(verified = true, email = uniqueEmail('linker')): Promise<Account> {
    const made = await register(base, email);
    service.secretsSeen.add(made.sessionId);
    if (verified) {
      const mail = await sink.waitFor((m) => m.envelope_to.includes(email) && m.subject === 'Confirm your email address');
      const token = new URL(linkIn(mail, '/verify-email')).searchParams.get('token')!;
      service.secretsSeen.add(token);
      expect((await postJson(base, '/api/auth/email/verify', { token })).status).toBe(200);
    }
    return made;
  }

  /** The local provider will vouch for this identity next. */
  function providerUser(email: string, emailVerified = true): string {
    const subject = `subject-${crypto.randomUUID()}`;
    Object.assign(service.fixture.provider.user, { subject, email, emailVerified });
    return subject;
  }

  /** POST the link form as the page on our own origin does; returns the response. */
  function postLink(provider: Provider, cookie: string | undefined, headers: Record<string, string> = { origin: base, 'sec-fetch-site': 'same-origin' }): Promise<Response> {
    return fetch(`${base}/api/auth/oauth/${provider}/link`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}), ...headers },
      body: '',
      redirect: 'manual',
    });
  }

  /** Starts a link for the account and lets the provider approve: the callback and the browser's binding cookie. */
  async function startLink(provider: Provider, owner: Account): Promise<{ callback: ProviderCallback; binding: string }> {
    const started = await postLink(provider, session(owner.sessionId));
    expect(started.status).toBe(303);
    const binding = bindingCookieOf(started)!;
    service.secretsSeen.add(binding.split('=')[1]!);
    const callback = await followAuthorization(started.headers.get('location')!);
    for (const name of ['code', 'state']) if (callback.params[name]) service.secretsSeen.add(callback.params[name]);
    return { callback, binding };
  }

  /** Delivers the provider's answer with exactly these cookies (JSON asked for, no redirects followed). */
  function deliver(callback: ProviderCallback, cookies: string[]): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json', ...(cookies.length ? { cookie: cookies.join('; ') } : {}) };
    if (callback.method === 'GET') {
      const url = new URL(callback.target);
      for (const [k, v] of Object.entries(callback.params)) url.searchParams.set(k, v);
      return fetch(url, { headers, redirect: 'manual' });
    }
    return fetch(callback.target, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(callback.params).toString(),
      redirect: 'manual',
    });
  }

  it('in Chromium: "Link provider_a" on the account page links the identity, and its next sign-in opens this account', async () => {
    const owner = await account();
    // The provider's address differs in case only: compared after the one normalisation.
    providerUser(owner.email.toUpperCase());
    const before = await linkedCount();
    const context = await browser.newContext();
    await context.addCookies([{ name: SESSION_COOKIE, value: owner.sessionId, url: base }]);
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await page.goto(`${base}/dashboard`);
    expect(await page.getAttribute('#providers', 'data-providers')).toBe('');
    await Promise.all([page.waitForURL(`${base}/dashboard?notice=provider_linked`), page.click('button[data-link-provider=provider_a]')]);
    expect(await page.textContent('#account-notice')).toContain('The provider is linked');
    expect(await page.getAttribute('#providers', 'data-providers')).toBe('provider_a');
    expect(await page.locator('button[data-link-provider=provider_a]').count()).toBe(0);
    expect(await page.locator('button[data-link-provider=provider_b]').count()).toBe(1);
    // The browser kept its password session: a link signs nobody in.
    const current = (await page.evaluate(async () => (await fetch('/api/auth/session')).json())) as { user_id: string; method: string };
    expect(current).toMatchObject({ user_id: owner.userId, method: 'password' });
    await context.close();
    expect(await linkedCount()).toBe(before + 1);

    // A fresh browser signs in with the provider: the same account.
    const fresh = await browser.newContext();
    const signIn = await fresh.newPage();
    signIn.setDefaultTimeout(30_000);
    await signIn.goto(`${base}/login`);
    await Promise.all([signIn.waitForURL(`${base}/dashboard`), signIn.click('a[data-provider=provider_a]')]);
    const signedIn = (await signIn.evaluate(async () => (await fetch('/api/auth/session')).json())) as { user_id: string; method: string };
    expect(signedIn).toMatchObject({ user_id: owner.userId, method: 'oauth:provider_a' });
    await fresh.close();
    // The password still opens the same account.
    const login = await postJson(base, '/api/auth/password/login', { email: owner.email, password: PASSWORD });
    expect(((await login.json()) as { user_id: string }).user_id).toBe(owner.userId);
  }, 120_000);

  it('provider_c (form_post, a cross-site POST without the Lax session cookie): linked while the session that started it lives', async () => {
    const owner = await account();
    providerUser(owner.email);
    const { callback, binding } = await startLink('provider_c', owner);
    expect(callback.method).toBe('POST');
    const done = await deliver(callback, [binding]);
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('/dashboard?notice=provider_linked');
    expect(sessionCookieOf(done)).toBeUndefined();
    expect(await dashboard(owner.sessionId)).toMatch(/id="providers" data-providers="provider_c">/);
  }, 60_000);

  it('a start from another site is refused: no state, no binding cookie, nothing linked', async () => {
    const owner = await account();
    const before = await linkedCount();
    const attempts: Record<string, string>[] = [
      { origin: 'https://attacker.example', 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' },
      { origin: 'https://attacker.example' },
      { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' },
      { origin: 'http://127.0.0.1:1', 'sec-fetch-site': 'same-site' },
    ];
    for (const headers of attempts) {
      const refused = await postLink('provider_a', session(owner.sessionId), { ...headers, accept: 'application/json' });
      expect(refused.status).toBe(403);
      expect(refused.headers.get('location')).toBeNull();
      expect(bindingCookieOf(refused)).toBeUndefined();
    }
    // And a GET (a link or an <img>) starts nothing.
    const get = await fetch(`${base}/api/auth/oauth/provider_a/link`, { headers: { cookie: session(owner.sessionId) }, redirect: 'manual' });
    expect(get.status).toBe(405);
    expect(await linkedCount()).toBe(before);
  }, 60_000);

  it('a callback in a browser that signed out, or that now holds another session, is refused; nothing linked', async () => {
    const owner = await account();
    const other = await account();
    providerUser(owner.email);
    const before = await linkedCount();

    // Signed in as another account since: the browser holds another session.
    const swapped = await startLink('provider_a', owner);
    await expectFailure(await deliver(swapped.callback, [swapped.binding, session(other.sessionId)]), 403, 'forbidden', 'oauth_link_session_changed');

    // No session cookie at all on a query callback (the cookie is cleared, the session may live).
    const cleared = await startLink('provider_a', owner);
    await expectFailure(await deliver(cleared.callback, [cleared.binding]), 403, 'forbidden', 'oauth_link_session_changed');

    // Signed out: the session is revoked, the cookie brought back changes nothing; form_post too.
    const out = await startLink('provider_a', owner);
    const outC = await startLink('provider_c', owner);
    const logout = await fetch(`${base}/api/auth/logout`, { method: 'POST', headers: { cookie: session(owner.sessionId) }, redirect: 'manual' });
    expect(logout.status).toBeLessThan(400);
    await expectFailure(await deliver(out.callback, [out.binding, session(owner.sessionId)]), 403, 'forbidden', 'oauth_link_session_changed');
    await expectFailure(await deliver(outC.callback, [outC.binding]), 403, 'forbidden', 'oauth_link_session_changed');

    expect(await linkedCount()).toBe(before);
    expect(await dashboard(other.sessionId)).toMatch(/id="providers" data-providers="">/);
    // The page a browser sees: "Linking failed", and the way back to the account.
    const again = await account();
    providerUser(again.email);
    const page = await startLink('provider_a', again);
    const url = new URL(page.callback.target);
    for (const [k, v] of Object.entries(page.callback.params)) url.searchParams.set(k, v);
    const html = await fetch(url, { headers: { cookie: `${page.binding}; ${session(other.sessionId)}` }, redirect: 'manual' });
    expect(html.status).toBe(403);
    const text = await html.text();
    expect(text).toContain('Linking failed');
    expect(text).toContain('id="back-to-account"');
  }, 90_000);

  it('a provider email that is not verified, or is another address, is refused; nothing linked', async () => {
    const owner = await account();
    const before = await linkedCount();
    providerUser(owner.email, false);
    const unverified = await startLink('provider_a', owner);
    await expectFailure(await deliver(unverified.callback, [unverified.binding, session(owner.sessionId)]), 403, 'forbidden', 'oauth_link_email_unverified');
    for (const provider of ['provider_a', 'provider_b', 'provider_c'] as const) {
      providerUser(uniqueEmail('someone-else'));
      const other = await startLink(provider, owner);
      await expectFailure(await deliver(other.callback, [other.binding, session(owner.sessionId)]), 403, 'forbidden', 'oauth_link_email_mismatch');
    }
    expect(await linkedCount()).toBe(before);
    expect(await dashboard(owner.sessionId)).toMatch(/id="providers" data-providers="">/);
  }, 90_000);

  it('an identity linked to another account is refused', async () => {
    const owner = await account();
    providerUser(owner.email);
    // The identity signed in before the owner linked it: a separate account of its own (pre-hijacking defence).
    const started = await fetch(`${base}/api/auth/oauth/provider_a/start`, { redirect: 'manual' });
    const binding = bindingCookieOf(started)!;
    service.secretsSeen.add(binding.split('=')[1]!);
    const signedIn = await deliver(await followAuthorization(started.headers.get('location')!), [binding]);
    expect(signedIn.status).toBe(302);
    const separate = sessionCookieOf(signedIn)!;
    service.secretsSeen.add(separate);
    const before = await linkedCount();
    const taken = await startLink('provider_a', owner);
    await expectFailure(await deliver(taken.callback, [taken.binding, session(owner.sessionId)]), 409, 'conflict', 'oauth_link_identity_taken');
    expect(await linkedCount()).toBe(before);
    expect(await dashboard(owner.sessionId)).toMatch(/id="providers" data-providers="">/);
    expect(await dashboard(separate)).toMatch(/id="providers" data-providers="provider_a">/);
  }, 60_000);

  it('an account whose address is not verified has no link button, and the route refuses it; signed out: 401', async () => {
    const owner = await account(false);
    providerUser(owner.email);
    const page = await dashboard(owner.sessionId);
    expect(page).toContain('data-state="unverified"');
    expect(page).not.toContain('data-link-provider');
    const refused = await postLink('provider_a', session(owner.sessionId), { origin: base, accept: 'application/json' });
    await expectFailure(refused, 403, 'forbidden', 'oauth_link_account_unverified');
    expect(bindingCookieOf(refused)).toBeUndefined();
    await expectFailure(await postLink('provider_a', undefined, { origin: base, accept: 'application/json' }), 401, 'unauthorized', 'oauth_link_sign_in_required');
  }, 60_000);

  it('the logs hold no code, state, cookie or token', () => {
    expectNoSecretsLogged(service);
    expect(service.host.logs().some((l) => l.code === 'auth_identity_linked')).toBe(true);
  });
});
