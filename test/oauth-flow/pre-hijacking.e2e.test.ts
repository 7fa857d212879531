/**
 * Account pre-hijacking (docs/security.md, "The linking rule"): an attacker registers a
 * password account with the victim's email before the victim ever signs in; the victim then signs
 * in through a provider that verified that email, in Chromium. The victim must land in an account
 * of their own: the attacker's password opens only the attacker's account, which carries no link
 * to the victim's provider identity and sees nothing of the victim's session.
 */
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { requireTool } from '../../harness/tools.ts';
import { SESSION_COOKIE, sessionCookieOf, type Service, withServiceAndBrowser } from './support.ts';

const chromiumTool = requireTool('chromium');
const ATTACKER_PASSWORD = 'attacker knows this one';

interface SessionBody {
  authenticated: boolean;
  user_id?: string;
  method?: string;
}

async function passwordLogin(service: Service, email: string): Promise<string> {
  const response = await fetch(`${service.host.url}/api/auth/password/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: ATTACKER_PASSWORD }),
  });
  expect(response.status).toBe(200);
  const cookie = sessionCookieOf(response);
  expect(cookie).toBeDefined();
  service.secretsSeen.add(cookie!);
  return cookie!;
}

describe.skipIf(!chromiumTool)('account pre-hijacking in Chromium', () => {
  let service: Service;
  let browser: Browser;
  withServiceAndBrowser(chromiumTool, (s, b) => {
    service = s;
    browser = b;
  });

  it('a password account registered first with the victim’s email is not the account the victim reaches', async () => {
    const provider = 'provider_a';
    const victimEmail = service.fixture.provider.user.email;
    const register = await fetch(`${service.host.url}/api/auth/password/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: victimEmail, password: ATTACKER_PASSWORD }),
    });
    expect(register.status).toBe(202);
    const attackerCookie = await passwordLogin(service, victimEmail);
    const attacker = (await (await fetch(`${service.host.url}/api/auth/session`, { headers: { cookie: `${SESSION_COOKIE}=${attackerCookie}` } })).json()) as SessionBody;
    expect(attacker).toMatchObject({ authenticated: true, method: 'password' });

    // The victim signs in through the provider in a browser of their own.
    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await page.goto(`${service.host.url}/login`);
    await Promise.all([page.waitForURL(`${service.host.url}/dashboard`), page.click(`a[data-provider=${provider}]`)]);
    const victim = (await page.evaluate(async () => (await fetch('/api/auth/session')).json())) as SessionBody;
    expect(victim).toMatchObject({ authenticated: true, method: `oauth:${provider}` });
    expect(victim.user_id).not.toBe(attacker.user_id);
    // The account page names no user id (a raw identifier means nothing to a person).
    expect(await page.content()).not.toContain(victim.user_id);

    // The attacker signs in with the password again: the attacker's own account, still without
    // the victim's provider, and not the user id the victim's browser shows.
    const again = await passwordLogin(service, victimEmail);
    const dashboard = await fetch(`${service.host.url}/dashboard`, { headers: { cookie: `${SESSION_COOKIE}=${again}` } });
    expect(dashboard.status).toBe(200);
    const html = await dashboard.text();
    // The page shows no user id: whose account it is, the session answers.
    const session = (await (await fetch(`${service.host.url}/api/auth/session`, { headers: { cookie: `${SESSION_COOKIE}=${again}` } })).json()) as SessionBody;
    expect(session.user_id).toBe(attacker.user_id);
    expect(html).not.toContain(victim.user_id!);
    expect(html).toMatch(/id="providers" data-providers="">/);
    await context.close();
  });
});
