/**
 * Changing the email address under the real `wasmtime serve` (the standalone component, its file
 * store), mail delivered from the file store's outbox to a real SMTP server: a stolen session
 * without the password changes nothing; the link to the new address moves the claim (the new
 * address signs in, the old one no longer does); the notice to the old address undoes the change,
 * ends every session and works once.
 */
import { describe, expect, it } from 'vitest';
import { requireTool } from '../../harness/tools.ts';
import { startMailingWasmtime } from '../support/mailing-wasmtime.ts';
import { startedForSuite } from '../support/started-for-suite.ts';
import { linkIn } from '../support/smtp-sink.ts';
import { cookieHeader, expectError, PASSWORD, postJson, register, sessionOf, uniqueEmail } from './support.ts';

const wasmtime = requireTool('wasmtime');
const python = requireTool('aiosmtpd');

const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

describe.skipIf(!wasmtime || !python)('changing the email address under wasmtime serve', () => {
  const server = startedForSuite(() => startMailingWasmtime(wasmtime!, python!, { guestEnv: { AUTH_CLIENT_MAX_ATTEMPTS_PER_MINUTE: '1000' } }), 600_000);

  const login = (email: string) => postJson(server().url, '/api/auth/password/login', { email, password: PASSWORD });
  const requestChange = (sessionId: string, email: string, password?: string) =>
    postJson(server().url, '/api/auth/email/change', password === undefined ? { email } : { email, password }, cookieHeader(sessionId));

  it('moves the claim through the link to the new address, and the notice to the old one undoes it and ends every session', { timeout: 240_000 }, async () => {
    const owner = await register(server().url);
    const next = uniqueEmail('moved');
    // A stolen session alone (no password, no recent sign-in by another method) asks nothing.
    await expectError(await requestChange(owner.sessionId, next), 403, 'forbidden');
    expect((await requestChange(owner.sessionId, next, PASSWORD)).status).toBe(202);
    const change = await server().mailTo(next, 'Confirm your new email address');
    expect(
      server()
        .sink.messages()
        .filter((m) => m.envelope_to.includes(next)),
    ).toHaveLength(1);
    const confirmed = await postJson(server().url, '/api/auth/email/change/confirm', { token: tokenOf(linkIn(change, '/confirm-email-change')) });
    expect(confirmed.status).toBe(200);
    expect((await login(next)).status).toBe(200);
    await expectError(await login(owner.email), 401, 'invalid_credentials');

    const notice = await server().mailTo(owner.email, 'Your email address was changed');
    const undo = tokenOf(linkIn(notice, '/undo-email-change'));
    const undone = await postJson(server().url, '/api/auth/email/change/undo', { token: undo });
    expect(undone.status).toBe(200);
    expect(await undone.json()).toMatchObject({ status: 'email_change_undone', address_restored: true });
    expect((await sessionOf(server().url, owner.sessionId))['authenticated']).toBe(false);
    expect((await login(owner.email)).status).toBe(200);
    await expectError(await login(next), 401, 'invalid_credentials');
    expect((await postJson(server().url, '/api/auth/email/change/undo', { token: undo })).status).toBe(404);
  });
});
