/**
 * The passkey ceremonies over real HTTP with a software authenticator (test/support/software-passkey.ts),
 * run against each host: register a passkey from a password session whose address is verified
 * (the mailed link, through a real SMTP server) with the password asked again, sign in with it
 * (aal2, amr with mfa), list, rename, remove; and the attacks, each refused with nothing changed:
 * an assertion for another RP ID, from another origin, a replayed challenge, a passkey of one
 * account presented with another account's user handle, a counter that goes back, no user
 * verification, a cross-site request; a passkey added to someone else's unverified address, or
 * with a session alone (no password). And the owner's ways back: the "passkey added" mail's
 * removal link, a password change and "sign out everywhere" that remove the passkeys.
 */
import { describe, expect, it } from 'vitest';
import { SoftwarePasskey } from '../support/software-passkey.ts';
import { cookieHeader, expectError, PASSWORD, postJson, register, sessionIdFrom, sessionOf } from '../auth/support.ts';
import type { MailingServer } from '../support/mailing-server.ts';
import { addSoftwarePasskey, passkeySignIn, verifiedAccount, type CreationOptions } from '../support/passkey-account.ts';
import { jsonAnswer as json, postSameOrigin, sameOriginHeaders } from '../support/same-origin-call.ts';
import { linkIn } from '../support/smtp-sink.ts';

/** A host whose mail reaches a real SMTP server (test/support/mailing-server.ts). */
export type PasskeyTarget = Pick<MailingServer, 'url' | 'origin' | 'logs' | 'mailTo'>;

export const PASSKEY_ADDED = 'A passkey was added to your account';
const UNVERIFIED = 'confirm your email address first: a passkey is only added to an account whose address is verified';
const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

const REFUSED = 'the passkey was not accepted';

export function passkeyCeremonySuite(target: () => PasskeyTarget): void {
  const browserHeaders = () => sameOriginHeaders(target().origin);
  const call = (path: string, body: unknown, sessionId?: string) => postSameOrigin(target(), path, body, sessionId);

  /** A password account (verified) holding one registered software passkey, added with the password. */
  async function accountWithPasskey(): Promise<{ email: string; sessionId: string; userId: string; key: SoftwarePasskey; passkeyId: string }> {
    const account = await verifiedAccount(target());
    const { key, id } = await addSoftwarePasskey(target(), account.sessionId, 'Test key');
    return { email: account.email, sessionId: account.sessionId, userId: account.userId, key, passkeyId: id };
  }

  const authenticationOptions = async () => json<{ challenge: string; rpId?: string }>(await call('/api/auth/passkeys/authentication/options', {}));

  /** A sign-in with `key` is refused with the fixed words (it was removed). */
  const expectSignsNobodyIn = async (key: SoftwarePasskey) => expectError(await passkeySignIn(target(), key), 401, 'invalid_credentials', REFUSED);

  async function passkeyList(sessionId: string) {
    const response = await fetch(`${target().url}/api/auth/passkeys`, { headers: cookieHeader(sessionId) });
    return (await json<{ passkeys: Array<{ id: string; name: string; last_used_at: string | null }> }>(response)).passkeys;
  }

  /** The reasons logged for refusals so far (the answer never says which check failed). */
  const refusals = () =>
    target()
      .logs()
      .filter((line) => line['code'] === 'auth_passkey_refused')
      .map((line) => String(line['reason']));

  /** The next refusal logged after `seen` earlier ones (the log line may trail the answer a little). */
  async function nextRefusal(seen: number): Promise<string | undefined> {
    for (let i = 0; i < 50 && refusals().length <= seen; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    return refusals()[seen];
  }

  /**
   * Sends an assertion that must be refused for `reason` (the check that refused it, from the
   * log), and checks nothing changed: no cookie, the passkey's last use the same.
   */
  async function expectRefused(owner: { sessionId: string }, response: Record<string, unknown>, reason: RegExp) {
    const before = await passkeyList(owner.sessionId);
    const seen = refusals().length;
    const answer = await call('/api/auth/passkeys/authentication/verify', { response });
    expect(sessionIdFrom(answer)).toBeUndefined();
    await expectError(answer, 401, 'invalid_credentials', REFUSED);
    expect(await nextRefusal(seen)).toMatch(reason);
    expect(await passkeyList(owner.sessionId)).toEqual(before);
  }

  describe('passkey ceremonies', () => {
    it('registers a passkey, signs in with it (aal2, amr with mfa) and lists it', async () => {
      const { sessionId, userId, key, passkeyId } = await accountWithPasskey();
      const options = await authenticationOptions();
      expect(options.rpId).toBe(new URL(target().origin).hostname);
      const answer = await call('/api/auth/passkeys/authentication/verify', { response: key.assert(options, { origin: target().origin }), next: '/dashboard' });
      const body = await json<{ user_id: string; aal: string; next: string }>(answer);
      expect(body).toMatchObject({ user_id: userId, aal: 'aal2', next: '/dashboard' });
      const session = await sessionOf(target().url, sessionIdFrom(answer));
      expect(session).toMatchObject({ authenticated: true, user_id: userId, aal: 'aal2', method: 'passkey' });
      expect(session['amr']).toEqual(expect.arrayContaining(['mfa']));
      expect((await sessionOf(target().url, sessionId))['amr']).toEqual(['pwd']);
      const [listed] = await passkeyList(sessionId);
      expect(listed).toMatchObject({ id: passkeyId, name: 'Test key' });
      expect(listed?.last_used_at).not.toBeNull();
    });

    it('refuses an assertion for another RP ID', async () => {
      const owner = await accountWithPasskey();
      await expectRefused(owner, owner.key.assert(await authenticationOptions(), { origin: target().origin, rpId: 'evil.example' }), /RP ID/);
    });

    it('refuses an assertion made for another origin', async () => {
      const owner = await accountWithPasskey();
      await expectRefused(owner, owner.key.assert(await authenticationOptions(), { origin: 'http://evil.example' }), /origin/);
    });

    it('refuses a replayed challenge: the same response, and a new signature over a used challenge', async () => {
      const owner = await accountWithPasskey();
      const options = await authenticationOptions();
      const response = owner.key.assert(options, { origin: target().origin });
      await json(await call('/api/auth/passkeys/authentication/verify', { response }));
      await expectRefused(owner, response, /challenge/);
      await expectRefused(owner, owner.key.assert(options, { origin: target().origin }), /challenge/);
    });

    it("refuses one account's passkey presented with another account's user handle", async () => {
      const alice = await accountWithPasskey();
      const bob = await accountWithPasskey();
      await expectRefused(alice, alice.key.assert(await authenticationOptions(), { origin: target().origin, userHandle: bob.key.userHandle }), /user handle/);
      await expectRefused(bob, bob.key.assert(await authenticationOptions(), { origin: target().origin, userHandle: alice.key.userHandle }), /user handle/);
    });

    it('refuses a signature counter that did not move forward', async () => {
      const owner = await accountWithPasskey();
      await json(await call('/api/auth/passkeys/authentication/verify', { response: owner.key.assert(await authenticationOptions(), { origin: target().origin, counter: 5 }) }));
      await expectRefused(owner, owner.key.assert(await authenticationOptions(), { origin: target().origin, counter: 5 }), /counter/);
      await expectRefused(owner, owner.key.assert(await authenticationOptions(), { origin: target().origin, counter: 3 }), /counter/);
      await json(await call('/api/auth/passkeys/authentication/verify', { response: owner.key.assert(await authenticationOptions(), { origin: target().origin, counter: 6 }) }));
    });

    it('refuses an assertion without user verification', async () => {
      const owner = await accountWithPasskey();
      await expectRefused(owner, owner.key.assert(await authenticationOptions(), { origin: target().origin, withoutUserVerification: true }), /[Uu]ser verification/);
    });

    it('refuses a cross-site request (403) and a registration challenge used for another account', async () => {
      const alice = await verifiedAccount(target());
      const bob = await verifiedAccount(target());
      const cross = await postJson(target().url, '/api/auth/passkeys/authentication/options', {}, { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' });
      await expectError(cross, 403, 'forbidden');
      const options = await json<CreationOptions>(await call('/api/auth/passkeys/registration/options', { password: PASSWORD }, alice.sessionId));
      const refused = await call('/api/auth/passkeys/registration/verify', { response: new SoftwarePasskey().register(options, { origin: target().origin }) }, bob.sessionId);
      await expectError(refused, 401, 'invalid_credentials', REFUSED);
      expect(await passkeyList(bob.sessionId)).toEqual([]);
    });

    it('renames and removes a passkey; a removed one signs nobody in', async () => {
      const owner = await accountWithPasskey();
      const renamed = await fetch(`${target().url}/api/auth/passkeys/${owner.passkeyId}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', ...browserHeaders(), ...cookieHeader(owner.sessionId) },
        body: JSON.stringify({ name: '  Laptop\n ' }),
      });
      expect(await json(renamed)).toMatchObject({ id: owner.passkeyId, name: 'Laptop' });
      const stranger = await register(target().url);
      const notTheirs = await fetch(`${target().url}/api/auth/passkeys/${owner.passkeyId}`, {
        method: 'DELETE',
        headers: { ...browserHeaders(), ...cookieHeader(stranger.sessionId) },
      });
      await expectError(notTheirs, 404, 'not_found');
      // Re-authenticated with the password (test/sign-in-methods/ holds the refusals without it).
      const removed = await fetch(`${target().url}/api/auth/passkeys/${owner.passkeyId}`, {
        method: 'DELETE',
        headers: { 'content-type': 'application/json', ...browserHeaders(), ...cookieHeader(owner.sessionId) },
        body: JSON.stringify({ password: PASSWORD }),
      });
      expect(removed.status).toBe(204);
      expect(await passkeyList(owner.sessionId)).toEqual([]);
      await expectSignsNobodyIn(owner.key);
    });
  });

  describe('who may add a passkey, and the way back', () => {
    /** Asks for creation options and answers them with a fresh authenticator: the whole "add" as an attacker would run it. */
    async function tryToAdd(sessionId: string, body: Record<string, unknown>): Promise<Response> {
      const options = await call('/api/auth/passkeys/registration/options', body, sessionId);
      if (options.status !== 200) return options;
      const created = await json<CreationOptions>(options);
      return call('/api/auth/passkeys/registration/verify', { response: new SoftwarePasskey().register(created, { origin: target().origin }) }, sessionId);
    }

    it("refuses a passkey on an address nobody proved: the attacker registers the victim's address, signs in, tries to add one", async () => {
      const attacker = await register(target().url, `victim-${Date.now()}-${Math.random().toString(36).slice(2)}@example.org`);
      await expectError(await tryToAdd(attacker.sessionId, { password: PASSWORD }), 403, 'forbidden', UNVERIFIED);
      expect(await passkeyList(attacker.sessionId)).toEqual([]);
      const page = await (await fetch(`${target().url}/dashboard`, { headers: cookieHeader(attacker.sessionId) })).text();
      expect(page).toContain('id="passkey-add-unverified"');
      expect(page).not.toContain('id="passkey-add-form"');
    });

    it('refuses a passkey from a stolen session: no password, or a wrong one; the password adds it', async () => {
      const owner = await verifiedAccount(target());
      await expectError(await tryToAdd(owner.sessionId, {}), 403, 'forbidden');
      await expectError(await tryToAdd(owner.sessionId, { password: 'not the password at all' }), 403, 'forbidden');
      expect(await passkeyList(owner.sessionId)).toEqual([]);
      expect((await tryToAdd(owner.sessionId, { password: PASSWORD })).status).toBe(201);
      expect(await passkeyList(owner.sessionId)).toHaveLength(1);
    });

    it('mails "A passkey was added" with a link whose page removes it, once; the removed passkey signs nobody in', async () => {
      const owner = await accountWithPasskey();
      const mail = await target().mailTo(owner.email, PASSKEY_ADDED);
      expect(mail.text).toContain('"Test key"');
      const link = linkIn(mail, '/remove-passkeys');
      const page = await fetch(`${target().url}/remove-passkeys?token=${tokenOf(link)}`);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain(`value="${owner.passkeyId}"`);
      // Opening the page changed nothing (mail scanners fetch links).
      expect(await passkeyList(owner.sessionId)).toHaveLength(1);
      const removed = await call('/api/auth/passkey-removal', { token: tokenOf(link), passkeys: [owner.passkeyId] });
      expect(await json(removed)).toEqual({ removed: 1 });
      expect(await passkeyList(owner.sessionId)).toEqual([]);
      await expectSignsNobodyIn(owner.key);
      await expectError(await call('/api/auth/passkey-removal', { token: tokenOf(link), passkeys: [owner.passkeyId] }), 404, 'not_found');
    });

    it('a password change with remove_passkeys removes every passkey; without it they stay', async () => {
      const owner = await accountWithPasskey();
      const kept = await json<{ passkeys_removed: number }>(
        await call('/api/auth/password/change', { current_password: PASSWORD, new_password: `${PASSWORD} again` }, owner.sessionId),
      );
      expect(kept.passkeys_removed).toBe(0);
      expect(await passkeyList(owner.sessionId)).toHaveLength(1);
      const changed = await json<{ passkeys_removed: number }>(
        await call('/api/auth/password/change', { current_password: `${PASSWORD} again`, new_password: PASSWORD, remove_passkeys: true }, owner.sessionId),
      );
      expect(changed.passkeys_removed).toBe(1);
      expect(await passkeyList(owner.sessionId)).toEqual([]);
      await expectSignsNobodyIn(owner.key);
    });

    it('"sign out everywhere" with remove_passkeys ends the passkeys too', async () => {
      const owner = await accountWithPasskey();
      const other = await json<{ revoked: number; passkeys_removed: number }>(await call('/api/auth/sessions/revoke-all', { remove_passkeys: true }, owner.sessionId));
      expect(other).toEqual({ revoked: 1, passkeys_removed: 1 });
      await expectSignsNobodyIn(owner.key);
    });
  });
}
