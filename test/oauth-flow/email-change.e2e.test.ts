/**
 * A provider account changes its email address, against the real host, the local provider and a
 * real SMTP server (aiosmtpd): its provider sign-in claimed the provider's verified address; a
 * fresh provider sign-in (no password to ask) lets it ask for the change, the link mailed to the
 * new address moves the claim, and the next provider sign-in still reaches the same account (an
 * identity is keyed by the provider's subject, never by an address), now showing the new address.
 * (Past the 5 minutes of a fresh sign-in the request is refused: src/auth/application/email-change.unit.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTool } from '../../harness/tools.ts';
import { linkIn, startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { cookieHeader, postJson, sessionOf, uniqueEmail } from '../auth/support.ts';
import { authorize, deliver, sessionCookieOf, startService, type Service } from './support.ts';

const python = requireTool('aiosmtpd');

describe.skipIf(!python)('changing the address of a provider account', () => {
  let sink: SmtpSink;
  let service: Service;
  beforeAll(async () => {
    sink = await startSmtpSink(python!);
    service = await startService({ SMTP_URL: sink.url, AUTH_CLIENT_MAX_ATTEMPTS_PER_MINUTE: '1000' });
  }, 90_000);
  afterAll(async () => {
    await service?.stop();
    await sink?.stop();
  });

  const signIn = async () => {
    const callback = await authorize(service, 'provider_a');
    const session = sessionCookieOf(await deliver(callback.target, callback.method, callback.params))!;
    service.secretsSeen.add(session);
    return session;
  };

  it('a fresh provider sign-in asks; the link moves the claim; the provider still signs in to the same account', async () => {
    const base = service.host.url;
    Object.assign(service.fixture.provider.user, { subject: `subject-${crypto.randomUUID()}`, email: uniqueEmail('provider'), emailVerified: true });
    const first = await signIn();
    const before = await sessionOf(base, first);
    const next = uniqueEmail('provider-moved');
    const asked = await postJson(base, '/api/auth/email/change', { email: next }, cookieHeader(first));
    expect(asked.status).toBe(202);
    const token = new URL(
      linkIn(await sink.waitFor((m) => m.envelope_to.includes(next) && m.subject === 'Confirm your new email address'), '/confirm-email-change'),
    ).searchParams.get('token');
    expect((await postJson(base, '/api/auth/email/change/confirm', { token })).status).toBe(200);
    expect((await sessionOf(base, first))['email']).toBe(next);

    const again = await signIn();
    const after = await sessionOf(base, again);
    expect(after).toMatchObject({ authenticated: true, user_id: before['user_id'], email: next, method: 'oauth:provider_a' });
    // The old address is free: a password registration of it makes a new account.
    const old = String(before['email']);
    expect((await postJson(base, '/api/auth/password/register', { email: old, password: 'a newcomer password' })).status).toBe(202);
    const newcomer = await postJson(base, '/api/auth/password/login', { email: old, password: 'a newcomer password' });
    expect(newcomer.status).toBe(200);
    expect(((await newcomer.json()) as { user_id: string }).user_id).not.toBe(before['user_id']);
  }, 90_000);
});
