/**
 * The first proof of the mailbox takes an account back from whoever registered its address: a
 * passkey planted while the address was unverified is removed by the owner's verification link or
 * reset, and a reset of a verified account leads to a page that lists the passkeys left and removes
 * them. Against the Node host on SQLite, mail through a real SMTP server (aiosmtpd).
 *
 * No passkey can be added to an unverified address any more (./ceremony-suite.ts), so the planted
 * passkey is a store-level fixture: a real passkey added through the API to a verified account,
 * whose `auth_email_verified` event is then deleted from the SQLite file with the host stopped: the
 * state an account had when a passkey could be added before the address was proved.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startHost, tempDataDir, type HostProcess } from '../../harness/host-process.ts';
import { requireTool } from '../../harness/tools.ts';
import { cookieHeader, expectError, postForm, sessionIdFrom } from '../auth/support.ts';
import { addSoftwarePasskey, passkeySignIn, verifiedAccount, type AccountTarget } from '../support/passkey-account.ts';
import { postSameOrigin, sameOriginHeaders } from '../support/same-origin-call.ts';
import { linkIn, startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import type { SoftwarePasskey } from '../support/software-passkey.ts';

const python = requireTool('aiosmtpd');
const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;
const NEW_PASSWORD = 'an entirely new passphrase';

describe.skipIf(!python)('the first proof of the mailbox removes passkeys added before it', () => {
  let sink: SmtpSink;
  let host: HostProcess;
  let port: number;
  let origin: string;
  const dataDir = tempDataDir('mailbox-proof-');
  const start = async () => {
    host = await startHost({ port, dataDir, env: { AUTH_PUBLIC_BASE_URL: origin, SMTP_URL: sink.url, AUTH_CLIENT_MAX_ATTEMPTS_PER_MINUTE: '1000' } });
  };

  beforeAll(async () => {
    sink = await startSmtpSink(python!);
    port = await freePort();
    origin = `http://localhost:${port}`;
    await start();
  }, 120_000);
  afterAll(async () => {
    await host?.stop();
    await sink?.stop();
  });

  const mailTo = (email: string, subject: string, from = 0) => sink.waitFor((m) => m.envelope_to.includes(email) && m.subject === subject, { from });
  /** The host as the passkey fixtures reach it: it restarts on the same port and data directory, so each call asks for the running one. */
  const target: AccountTarget = {
    get url() {
      return host.url;
    },
    get origin() {
      return origin;
    },
    logs: () => host.logs(),
    mailTo: (email, subject) => mailTo(email, subject),
  };
  const browser = () => sameOriginHeaders(origin);
  const call = (path: string, body: unknown, sessionId?: string) => postSameOrigin(target, path, body, sessionId);
  const signInWith = (key: SoftwarePasskey) => passkeySignIn(target, key);

  /** Whoever registered `email` (the attacker, in the story) holds a passkey on it; its address is then unverified again (see above). */
  async function plantedPasskey(): Promise<{ email: string; sessionId: string; key: SoftwarePasskey }> {
    const account = await verifiedAccount(target);
    const { key } = await addSoftwarePasskey(target, account.sessionId);
    return { ...account, key };
  }

  function unverify(emails: string[]): void {
    const db = new DatabaseSync(join(dataDir, 'app.sqlite'));
    try {
      for (const email of emails) {
        const stream = `auth-email-${createHash('sha256').update(email).digest('hex')}`;
        const { changes } = db.prepare("DELETE FROM app_events WHERE stream_id = ? AND event_type = 'auth_email_verified'").run(stream);
        expect(changes).toBe(1);
      }
    } finally {
      db.close();
    }
  }

  it("the verification link and a reset, the owner's first proofs, each remove the planted passkey (auth events recorded)", async () => {
    const viaLink = await plantedPasskey();
    const viaReset = await plantedPasskey();
    await host.stop();
    unverify([viaLink.email, viaReset.email]);
    await start();
    // The threat: before the owner proves the mailbox, the planted passkey signs in (aal2).
    expect((await signInWith(viaLink.key)).status).toBe(200);
    expect((await signInWith(viaReset.key)).status).toBe(200);

    // The verification link, followed by the owner (no session): the passkey goes.
    const seen = sink.messages().length;
    expect((await call('/api/auth/email/verification/resend', {}, viaLink.sessionId)).status).toBe(202);
    const link = linkIn(await mailTo(viaLink.email, 'Confirm your email address', seen), '/verify-email');
    expect((await call('/api/auth/email/verify', { token: tokenOf(link) })).status).toBe(200);
    await expectError(await signInWith(viaLink.key), 401, 'invalid_credentials');

    // "Forgot password?" and the reset, by the owner: the passkey goes, the address is verified.
    const before = sink.messages().length;
    expect((await call('/api/auth/password/forgot', { email: viaReset.email })).status).toBe(202);
    const resetLink = linkIn(await mailTo(viaReset.email, 'Reset your password', before), '/reset-password');
    const reset = await postForm(host.url, '/api/auth/password/reset', { token: tokenOf(resetLink), password: NEW_PASSWORD }, browser());
    expect(reset.status).toBe(303);
    expect(reset.headers.get('location')).toBe('/login?notice=password_reset');
    await expectError(await signInWith(viaReset.key), 401, 'invalid_credentials');
    const login = await call('/api/auth/password/login', { email: viaReset.email, password: NEW_PASSWORD });
    const dashboard = await (await fetch(`${host.url}/dashboard`, { headers: cookieHeader(sessionIdFrom(login)!) })).text();
    expect(dashboard).toContain('data-state="verified"');

    const removals = host.logs().filter((l) => l.code === 'auth_passkeys_removed' && l.reason === 'mailbox_proof');
    expect(removals.map((l) => l.removed)).toEqual([1, 1]);
  }, 240_000);

  it('a reset of a verified account leads to a page listing the passkeys left, whose form removes them', async () => {
    const owner = await plantedPasskey();
    const before = sink.messages().length;
    expect((await call('/api/auth/password/forgot', { email: owner.email })).status).toBe(202);
    const resetLink = linkIn(await mailTo(owner.email, 'Reset your password', before), '/reset-password');
    const reset = await postForm(host.url, '/api/auth/password/reset', { token: tokenOf(resetLink), password: NEW_PASSWORD }, browser());
    expect(reset.status).toBe(303);
    const review = reset.headers.get('location')!;
    expect(review).toMatch(/^\/remove-passkeys\?token=[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}&after=reset$/);
    const page = await (await fetch(`${host.url}${review}`)).text();
    const passkeyId = /name="passkey" value="([0-9a-f]{64})"/.exec(page)?.[1];
    expect(passkeyId).toBeDefined();
    expect(page).toContain('Your password is set');
    // The passkey still signs in until the owner removes it.
    expect((await signInWith(owner.key)).status).toBe(200);
    const removed = await postForm(host.url, '/api/auth/passkey-removal', { token: new URLSearchParams(review.split('?')[1]).get('token')!, passkey: passkeyId! }, browser());
    expect(removed.status).toBe(303);
    expect(removed.headers.get('location')).toBe('/login?notice=passkeys_removed');
    await expectError(await signInWith(owner.key), 401, 'invalid_credentials');
  }, 120_000);
});
