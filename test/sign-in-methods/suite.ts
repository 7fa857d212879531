/**
 * Managing sign-in methods from the attacker's side, over real HTTP with a software authenticator
 * (test/support/software-passkey.ts), run against each host and store: the last way in is never
 * removed (409 `conflict` in the envelope; a form post goes back to /dashboard with the reason,
 * which the page words); a stolen session without re-authentication removes nothing (403); two
 * removals racing from two sessions leave a way in; a removed passkey and a removed password sign
 * nobody in; the other sessions end, and the verified address is told by mail (a real SMTP server).
 * Provider unlinking is in test/oauth-flow/unlinking.e2e.test.ts (it needs the local provider).
 */
import { describe, expect, it } from 'vitest';
import type { SoftwarePasskey } from '../support/software-passkey.ts';
import { cookieHeader, expectError, PASSWORD, postForm, postJson, sessionIdFrom, sessionOf } from '../auth/support.ts';
import type { MailingServer } from '../support/mailing-server.ts';
import { addSoftwarePasskey, passkeySignIn as signInWith, verifiedAccount } from '../support/passkey-account.ts';
import { jsonAnswer as json, postSameOrigin, sameOriginHeaders } from '../support/same-origin-call.ts';

/** A host whose mail reaches a real SMTP server (test/support/mailing-server.ts). */
export type MethodsTarget = Pick<MailingServer, 'url' | 'origin' | 'logs' | 'mailTo'>;

export const METHOD_REMOVED = 'A sign-in method was removed';
const LAST_WAY_IN = 'this is the last way to sign in to the account: add another one first';

interface Method {
  method: string;
  kind: string;
  id?: string;
  removable: boolean;
  refusal?: string;
}

interface Owner {
  email: string;
  sessionId: string;
  userId: string;
  keys: Array<{ key: SoftwarePasskey; id: string }>;
}

export function signInMethodsSuite(target: () => MethodsTarget): void {
  const browser = () => sameOriginHeaders(target().origin);
  const call = (path: string, body: unknown, sessionId?: string) => postSameOrigin(target(), path, body, sessionId);
  const remove = (sessionId: string, body: Record<string, string>) => call('/api/auth/sign-in-methods/remove', body, sessionId);

  async function methods(sessionId: string): Promise<Method[]> {
    return (await json<{ methods: Method[] }>(await fetch(`${target().url}/api/auth/sign-in-methods`, { headers: cookieHeader(sessionId) }))).methods;
  }

  /** A password account whose address is verified with the mailed link, holding `passkeys` software passkeys. */
  async function account(passkeys = 0): Promise<Owner> {
    const made = await verifiedAccount(target());
    const keys: Owner['keys'] = [];
    for (let i = 0; i < passkeys; i++) keys.push(await addSoftwarePasskey(target(), made.sessionId, `Key ${i}`));
    return { email: made.email, sessionId: made.sessionId, userId: made.userId, keys };
  }

  /** Signs in with the passkey: the answer (200 with a session cookie, or the refusal). */
  const passkeySignIn = (key: SoftwarePasskey) => signInWith(target(), key);

  const passwordLogin = (email: string) => call('/api/auth/password/login', { email, password: PASSWORD });

  describe('sign-in methods', () => {
    it('refuses to remove the last way in: 409 in the envelope, and the form goes back to the account page with the reason', async () => {
      const owner = await account();
      expect(await methods(owner.sessionId)).toEqual([{ method: 'password', kind: 'password', removable: false, refusal: 'last_way_in' }]);
      await expectError(await remove(owner.sessionId, { method: 'password', password: PASSWORD }), 409, 'conflict', LAST_WAY_IN);
      const form = await postForm(target().url, '/api/auth/sign-in-methods/remove', { method: 'password', password: PASSWORD }, { ...browser(), ...cookieHeader(owner.sessionId) });
      expect(form.status).toBe(303);
      expect(form.headers.get('location')).toBe('/dashboard?error=conflict&form=methods');
      const page = await (await fetch(`${target().url}${form.headers.get('location')}`, { headers: cookieHeader(owner.sessionId) })).text();
      expect(page).toContain('id="sign-in-methods-error"');
      expect(page).toContain('This is the only way left to sign in to your account.');
      expect(page).toMatch(/<button[^>]*value="password"[^>]*disabled=""/);
      // Still a password account.
      expect((await passwordLogin(owner.email)).status).toBe(200);
      // A method the account does not have: 404, whatever the rule would say.
      await expectError(await remove(owner.sessionId, { method: `passkey:${'0'.repeat(64)}`, password: PASSWORD }), 404, 'not_found');
      await expectError(await remove(owner.sessionId, { method: 'provider:provider_a', password: PASSWORD }), 404, 'not_found');
    });

    it('a stolen session without re-authentication removes nothing (403), by either route; a wrong password neither', async () => {
      const owner = await account(1);
      const { key, id } = owner.keys[0]!;
      const stolen = owner.sessionId;
      await expectError(await remove(stolen, { method: 'password' }), 403, 'forbidden');
      await expectError(await remove(stolen, { method: `passkey:${id}` }), 403, 'forbidden');
      await expectError(await remove(stolen, { method: 'password', password: 'not the password at all' }), 403, 'forbidden');
      const bare = await fetch(`${target().url}/api/auth/passkeys/${id}`, { method: 'DELETE', headers: { ...browser(), ...cookieHeader(stolen) } });
      await expectError(bare, 403, 'forbidden');
      // And no session at all: 401.
      await expectError(await call('/api/auth/sign-in-methods/remove', { method: 'password', password: PASSWORD }), 401, 'unauthorized');
      // A cross-site post: 403 before anything is read.
      await expectError(
        await postJson(
          target().url,
          '/api/auth/sign-in-methods/remove',
          { method: 'password', password: PASSWORD },
          { ...cookieHeader(stolen), origin: 'https://attacker.example', 'sec-fetch-site': 'cross-site' },
        ),
        403,
        'forbidden',
      );
      expect((await methods(stolen)).map((m) => m.method)).toEqual(['password', `passkey:${id}`]);
      expect((await passwordLogin(owner.email)).status).toBe(200);
      expect((await passkeySignIn(key)).status).toBe(200);
    });

    it('removes a passkey after re-authentication: it signs nobody in, the other sessions end, the address is told', async () => {
      const owner = await account(2);
      const other = sessionIdFrom(await passwordLogin(owner.email))!;
      const [gone, kept] = owner.keys;
      const done = await json<{ removed: string; sessions_ended: number }>(await remove(owner.sessionId, { method: `passkey:${gone!.id}`, password: PASSWORD }));
      expect(done).toEqual({ removed: `passkey:${gone!.id}`, sessions_ended: 1 });
      await expectError(await passkeySignIn(gone!.key), 401, 'invalid_credentials');
      expect((await passkeySignIn(kept!.key)).status).toBe(200);
      expect((await sessionOf(target().url, other))['authenticated']).toBe(false);
      expect((await sessionOf(target().url, owner.sessionId))['authenticated']).toBe(true);
      const mail = await target().mailTo(owner.email, METHOD_REMOVED);
      expect(mail.text).toContain('the passkey "Key 0"');
      // The passkeys' own route follows the same rule and asks the same.
      const deleted = await fetch(`${target().url}/api/auth/passkeys/${kept!.id}`, {
        method: 'DELETE',
        headers: { 'content-type': 'application/json', ...browser(), ...cookieHeader(owner.sessionId) },
        body: JSON.stringify({ password: PASSWORD }),
      });
      expect(deleted.status).toBe(204);
      expect((await methods(owner.sessionId)).map((m) => m.method)).toEqual(['password']);
    });

    it('removes the password while a passkey remains: the password signs nobody in; the passkey is then the last way in', async () => {
      const owner = await account(2);
      const [first, second] = owner.keys;
      expect((await json(await remove(owner.sessionId, { method: 'password', password: PASSWORD })))['removed']).toBe('password');
      await expectError(await passwordLogin(owner.email), 401, 'invalid_credentials');
      // A fresh passkey sign-in stands for re-authentication (there is no password to ask any more).
      const fresh = sessionIdFrom(await passkeySignIn(first!.key))!;
      expect((await sessionOf(target().url, fresh))['user_id']).toBe(owner.userId);
      await json(await remove(fresh, { method: `passkey:${second!.id}` }));
      await expectError(await passkeySignIn(second!.key), 401, 'invalid_credentials');
      // One passkey left: the last way in.
      expect(await methods(fresh)).toEqual([{ method: `passkey:${first!.id}`, kind: 'passkey', id: first!.id, name: 'Key 0', removable: false, refusal: 'last_way_in' }]);
      await expectError(await remove(fresh, { method: `passkey:${first!.id}` }), 409, 'conflict', LAST_WAY_IN);
      const page = await (await fetch(`${target().url}/dashboard`, { headers: cookieHeader(fresh) })).text();
      expect(page).toMatch(/<button[^>]*value="passkey:[0-9a-f]{64}"[^>]*disabled=""[^>]*aria-describedby="method-reason-passkey-[0-9a-f]{64}"/);
      expect((await passkeySignIn(first!.key)).status).toBe(200);
    });

    it('two removals racing from two sessions never leave the account without a way in', async () => {
      for (let round = 0; round < 3; round++) {
        const owner = await account(1);
        const second = sessionIdFrom(await passwordLogin(owner.email))!;
        const { key, id } = owner.keys[0]!;
        const answers = await Promise.all([remove(owner.sessionId, { method: 'password', password: PASSWORD }), remove(second, { method: `passkey:${id}`, password: PASSWORD })]);
        const statuses = answers.map((a) => a.status);
        expect(statuses.filter((s) => s === 200).length, String(statuses)).toBeLessThanOrEqual(1);
        const passwordWorks = (await passwordLogin(owner.email)).status === 200;
        const passkeyWorks = (await passkeySignIn(key)).status === 200;
        expect(passwordWorks || passkeyWorks).toBe(true);
      }
    });
  });
}
