/**
 * The passkey ceremonies over real HTTP with a software authenticator (test/support/software-passkey.ts),
 * run against each host: register a passkey from a password session, sign in with it (aal2, amr
 * with mfa), list, rename, remove; and the attacks, each refused with nothing changed: an
 * assertion for another RP ID, from another origin, a replayed challenge, a passkey of one
 * account presented with another account's user handle, a counter that goes back, no user
 * verification, a cross-site request.
 */
import { describe, expect, it } from 'vitest';
import { SoftwarePasskey } from '../support/software-passkey.ts';
import { cookieHeader, expectError, postJson, register, sessionIdFrom, sessionOf } from '../auth/support.ts';

export interface PasskeyTarget {
  /** where requests go (127.0.0.1:port) */
  url: string;
  /** AUTH_PUBLIC_BASE_URL's origin (http://localhost:port): the RP ID is its host */
  origin: string;
  /** the server's JSON log lines so far */
  logs(): Array<Record<string, unknown>>;
}

const REFUSED = 'the passkey was not accepted';

interface Options {
  challenge: string;
  rpId?: string;
  rp?: { id?: string };
  user?: { id: string };
}

async function json<T = Record<string, unknown>>(response: Response, status = 200): Promise<T> {
  expect(response.status, await response.clone().text()).toBe(status);
  return (await response.json()) as T;
}

export function passkeyCeremonySuite(target: () => PasskeyTarget): void {
  const browserHeaders = () => ({ origin: target().origin, 'sec-fetch-site': 'same-origin' });
  const call = (path: string, body: unknown, sessionId?: string) => postJson(target().url, path, body, { ...browserHeaders(), ...(sessionId ? cookieHeader(sessionId) : {}) });

  /** A password account holding one registered software passkey. */
  async function accountWithPasskey(): Promise<{ sessionId: string; userId: string; key: SoftwarePasskey; passkeyId: string }> {
    const account = await register(target().url);
    const key = new SoftwarePasskey();
    const options = await json<Options & { rp: { id: string }; user: { id: string } }>(await call('/api/auth/passkeys/registration/options', {}, account.sessionId));
    const created = await json<{ id: string }>(
      await call('/api/auth/passkeys/registration/verify', { response: key.register(options, { origin: target().origin }), name: 'Test key' }, account.sessionId),
      201,
    );
    return { sessionId: account.sessionId, userId: account.userId, key, passkeyId: created.id };
  }

  const authenticationOptions = async () => json<Options>(await call('/api/auth/passkeys/authentication/options', {}));

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
      const alice = await register(target().url);
      const bob = await register(target().url);
      const cross = await postJson(target().url, '/api/auth/passkeys/authentication/options', {}, { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' });
      await expectError(cross, 403, 'forbidden');
      const options = await json<Options & { rp: { id: string }; user: { id: string } }>(await call('/api/auth/passkeys/registration/options', {}, alice.sessionId));
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
      const removed = await fetch(`${target().url}/api/auth/passkeys/${owner.passkeyId}`, { method: 'DELETE', headers: { ...browserHeaders(), ...cookieHeader(owner.sessionId) } });
      expect(removed.status).toBe(204);
      expect(await passkeyList(owner.sessionId)).toEqual([]);
      const answer = await call('/api/auth/passkeys/authentication/verify', { response: owner.key.assert(await authenticationOptions(), { origin: target().origin }) });
      await expectError(answer, 401, 'invalid_credentials', REFUSED);
    });
  });
}
