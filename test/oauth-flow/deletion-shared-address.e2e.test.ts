/**
 * Deleting an account that shows an address it does not own (docs/security.md, "Account
 * deletion"), against the real host, the local provider and a real SMTP server (aiosmtpd): a
 * password account owns the address; a provider sign-in with the same verified address gets a
 * separate account showing it (the linking rule). The provider account is deleted. What must
 * hold: the password account keeps its claim, its mail and its links: its owner signs in, the
 * verification link mailed before still verifies, "forgot password" mails a reset link, and
 * registering the address again is still answered as for a taken address (nothing written, the
 * log says `auth_register_taken`, the new password opens nothing).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTool } from '../../harness/tools.ts';
import { linkIn, startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { cookieHeader, PASSWORD, postJson, register, sessionOf } from '../auth/support.ts';
import { authorize, deliver, sessionCookieOf, startService, type Service } from './support.ts';

const python = requireTool('aiosmtpd');
const INTRUDER_PASSWORD = 'someone else entirely';

describe.skipIf(!python)('deleting a provider account that shows a password account’s address', () => {
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

  it('leaves the owner’s claim, mail and links: sign-in, verification and reset work; the address stays taken', async () => {
    const base = service.host.url;
    const address = service.fixture.provider.user.email;
    const owner = await register(base, address);
    const verifyToken = new URL(linkIn(await sink.waitFor((m) => m.envelope_to.includes(address) && m.subject === 'Confirm your email address'), '/verify-email')).searchParams.get(
      'token',
    )!;
    const registerAgain = async () => {
      const response = await postJson(base, '/api/auth/password/register', { email: address, password: INTRUDER_PASSWORD });
      return { status: response.status, body: await response.text() };
    };
    const takenBefore = await registerAgain();

    // The provider sign-in with the same verified address: a separate account showing it.
    const callback = await authorize(service, 'provider_a');
    const providerSession = sessionCookieOf(await deliver(callback.target, callback.method, callback.params))!;
    service.secretsSeen.add(providerSession);
    const shown = await sessionOf(base, providerSession);
    expect(shown).toMatchObject({ authenticated: true, email: address, method: 'oauth:provider_a' });
    expect(shown['user_id']).not.toBe(owner.userId);

    // Its owner deletes it (a fresh provider sign-in re-authenticates).
    const deleted = await fetch(`${base}/api/auth/account`, { method: 'DELETE', headers: cookieHeader(providerSession) });
    expect(deleted.status).toBe(204);

    // The password account is whole: its owner signs in, the link mailed before still verifies.
    const login = await postJson(base, '/api/auth/password/login', { email: address, password: PASSWORD });
    expect(login.status).toBe(200);
    expect((await sessionOf(base, owner.sessionId))['user_id']).toBe(owner.userId);
    expect((await postJson(base, '/api/auth/email/verify', { token: verifyToken }, cookieHeader(owner.sessionId))).status).toBe(200);
    // "Forgot password?" mails the owner a reset link.
    const mailsBefore = sink.messages().length;
    expect((await postJson(base, '/api/auth/password/forgot', { email: address })).status).toBe(202);
    linkIn(await sink.waitFor((m) => m.envelope_to.includes(address) && m.subject === 'Reset your password', { from: mailsBefore }), '/reset-password');

    // The address is still taken: the same answer as before the deletion, nothing written.
    const takenLogs = () => service.host.logs().filter((l) => l['code'] === 'auth_register_taken').length;
    const takenCount = takenLogs();
    expect(await registerAgain()).toEqual(takenBefore);
    await expect.poll(takenLogs).toBe(takenCount + 1);
    expect((await postJson(base, '/api/auth/password/login', { email: address, password: INTRUDER_PASSWORD })).status).toBe(401);
  }, 90_000);
});
