/**
 * Unlinking a provider (docs/auth.md "Sign-in methods"), against the real host, the local provider
 * and a real SMTP server, over HTTP as an attacker would call it: a provider-made account cannot
 * unlink its only provider (409); once another provider is linked it can, and the unlinked identity
 * then signs in to an account of its own, never back into this one (though the account's address
 * is verified and it has no password, which would let a new identity join it by email); a password
 * account's stolen session cannot unlink without the password, and after an unlink the provider's
 * next sign-in never joins the password account (the pre-hijacking rule holds). Each unlink is an
 * auth event (storage status counts it) and the verified address is told by mail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTool } from '../../harness/tools.ts';
import { followAuthorization, type ProviderCallback } from '../support/oauth-provider/follow-authorization.ts';
import { linkIn, startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { expectError, PASSWORD, postJson, register } from '../auth/support.ts';
import { authorize, bindingCookieOf, deliver as deliverSignIn, eventCounts, SESSION_COOKIE, sessionCookieOf, startService, type Provider, type Service } from './support.ts';

const python = requireTool('aiosmtpd');
const LAST_WAY_IN = 'this is the last way to sign in to the account: add another one first';

describe.skipIf(!python)('unlinking a provider', () => {
  let sink: SmtpSink;
  let service: Service;
  let base: string;

  beforeAll(async () => {
    sink = await startSmtpSink(python!);
    service = await startService({ SMTP_URL: sink.url, AUTH_EMAIL_FROM: 'Counter <accounts@example.com>' });
    base = service.host.url;
  }, 90_000);
  afterAll(async () => {
    await service?.stop();
    await sink?.stop();
  });

  const cookie = (sessionId: string) => ({ cookie: `${SESSION_COOKIE}=${sessionId}` });
  const sameSite = () => ({ origin: base, 'sec-fetch-site': 'same-origin' });
  const remove = (sessionId: string, body: Record<string, string>) => postJson(base, '/api/auth/sign-in-methods/remove', body, { ...sameSite(), ...cookie(sessionId) });
  const whoIs = async (sessionId: string) =>
    (await (await fetch(`${base}/api/auth/session`, { headers: cookie(sessionId) })).json()) as { authenticated: boolean; user_id?: string };
  const methodsOf = async (sessionId: string) =>
    ((await (await fetch(`${base}/api/auth/sign-in-methods`, { headers: cookie(sessionId) })).json()) as { methods: Array<{ method: string; removable: boolean }> }).methods;

  /** The local provider will vouch for this identity next. */
  function providerUser(email: string, subject = `subject-${crypto.randomUUID()}`): string {
    Object.assign(service.fixture.provider.user, { subject, email, emailVerified: true });
    return subject;
  }

  /** A full provider sign-in in a fresh browser: the new session id. */
  async function signInWith(provider: Provider): Promise<string> {
    const callback = await authorize(service, provider);
    const done = await deliverSignIn(callback.target, callback.method, callback.params);
    expect(done.status, await done.clone().text()).toBeLessThan(400);
    const sessionId = sessionCookieOf(done)!;
    expect(sessionId).toBeDefined();
    service.secretsSeen.add(sessionId);
    return sessionId;
  }

  /** "Link <provider>" from inside the account (the form post, the provider's approval, the callback with both cookies). */
  async function link(provider: Provider, sessionId: string): Promise<void> {
    const started = await fetch(`${base}/api/auth/oauth/${provider}/link`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...cookie(sessionId), ...sameSite() },
      body: '',
      redirect: 'manual',
    });
    expect(started.status).toBe(303);
    const binding = bindingCookieOf(started)!;
    const callback: ProviderCallback = await followAuthorization(started.headers.get('location')!);
    const url = new URL(callback.target);
    const cookies = [binding, `${SESSION_COOKIE}=${sessionId}`].join('; ');
    let done: Response;
    if (callback.method === 'GET') {
      for (const [k, v] of Object.entries(callback.params)) url.searchParams.set(k, v);
      done = await fetch(url, { headers: { cookie: cookies }, redirect: 'manual' });
    } else {
      done = await fetch(url, {
        method: 'POST',
        headers: { cookie: cookies, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(callback.params).toString(),
        redirect: 'manual',
      });
    }
    expect(done.headers.get('location')).toBe('/dashboard?notice=provider_linked');
  }

  it('a provider-made account keeps its only provider (409); with a second one linked it unlinks the first, which then never signs in to it again', async () => {
    const email = `unlink-${crypto.randomUUID()}@example.com`;
    const subjectA = providerUser(email);
    const first = await signInWith('provider_a');
    const owner = (await whoIs(first)).user_id!;
    expect(await methodsOf(first)).toEqual([expect.objectContaining({ method: 'provider:provider_a', removable: false })]);
    // A fresh provider sign-in re-authenticates, but the last way in stays.
    await expectError(await remove(first, { method: 'provider:provider_a' }), 409, 'conflict', LAST_WAY_IN);

    const subjectB = providerUser(email);
    await link('provider_b', first);
    const before = (await eventCounts(base))['auth_external_identity_unlinked'] ?? 0;
    const done = await remove(first, { method: 'provider:provider_a' });
    expect(done.status, await done.clone().text()).toBe(200);
    expect((await eventCounts(base))['auth_external_identity_unlinked']).toBe(before + 1);
    const notice = await sink.waitFor((m) => m.envelope_to.includes(email) && m.subject === 'A sign-in method was removed');
    expect(notice.text).toContain('sign-in with');

    // The same provider_a subject signs in again: an account of its own, not the one that unlinked it.
    providerUser(email, subjectA);
    const again = await whoIs(await signInWith('provider_a'));
    expect(again.authenticated).toBe(true);
    expect(again.user_id).not.toBe(owner);
    // provider_b (the linked subject) still opens the account, and is now its last way in.
    providerUser(email, subjectB);
    const viaB = await signInWith('provider_b');
    expect((await whoIs(viaB)).user_id).toBe(owner);
    await expectError(await remove(viaB, { method: 'provider:provider_b' }), 409, 'conflict', LAST_WAY_IN);
  }, 90_000);

  it('a password account: a stolen session cannot unlink without the password; unlinked, the provider never joins the password account', async () => {
    const made = await register(base);
    service.secretsSeen.add(made.sessionId);
    const verification = linkIn(await sink.waitFor((m) => m.envelope_to.includes(made.email) && m.subject === 'Confirm your email address'), '/verify-email');
    expect((await postJson(base, '/api/auth/email/verify', { token: new URL(verification).searchParams.get('token') })).status).toBe(200);
    const subject = providerUser(made.email);
    await link('provider_a', made.sessionId);
    expect((await whoIs(await signInWith('provider_a'))).user_id).toBe(made.userId);

    await expectError(await remove(made.sessionId, { method: 'provider:provider_a' }), 403, 'forbidden');
    await expectError(await remove(made.sessionId, { method: 'provider:provider_a', password: 'a guess that is wrong' }), 403, 'forbidden');
    expect((await methodsOf(made.sessionId)).map((m) => m.method)).toEqual(['password', 'provider:provider_a']);

    expect((await remove(made.sessionId, { method: 'provider:provider_a', password: PASSWORD })).status).toBe(200);
    expect((await methodsOf(made.sessionId)).map((m) => m.method)).toEqual(['password']);
    providerUser(made.email, subject);
    const after = await whoIs(await signInWith('provider_a'));
    expect(after.user_id).not.toBe(made.userId);
    const login = await postJson(base, '/api/auth/password/login', { email: made.email, password: PASSWORD });
    expect(((await login.json()) as { user_id: string }).user_id).toBe(made.userId);
  }, 90_000);
});
