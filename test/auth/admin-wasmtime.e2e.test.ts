/**
 * The administration API under the real `wasmtime serve` (the standalone component, its file
 * store): the same token check (a forged and a wrong-audience token refused), the search answered
 * by a bounded scan of the file store's document list, and a disable that ends the account's
 * sessions at once and refuses its password, passkey and provider sign-in until enabled. The
 * address is verified through a real SMTP server (the mail drained from the file store's outbox),
 * as a passkey needs; the provider is a local OpenID provider.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../harness/host-process.ts';
import { requireTool } from '../../harness/tools.ts';
import { startMailingWasmtime, type MailingWasmtime } from '../support/mailing-wasmtime.ts';
import { startOAuthFixture, type OAuthFixture } from '../support/oauth-provider/fixture.ts';
import { providerSignIn as signInThroughProvider } from '../support/oauth-provider/provider-sign-in.ts';
import { operatorIssuer } from '../support/operator-token.ts';
import { accountsToDisable } from '../support/accounts-to-disable.ts';
import { passkeySignIn as signInWith } from '../support/passkey-account.ts';
import type { SoftwarePasskey } from '../support/software-passkey.ts';
import { expectError, PASSWORD, postJson, sessionOf, uniqueEmail } from './support.ts';

const wasmtime = requireTool('wasmtime');
const python = requireTool('aiosmtpd');
const operator = await operatorIssuer();

describe.skipIf(!wasmtime || !python)('the administration API under wasmtime serve', () => {
  let server: MailingWasmtime;
  let fixture: OAuthFixture;
  beforeAll(async () => {
    const port = await freePort();
    // localhost, not 127.0.0.1: a passkey's RP ID is a domain name.
    fixture = await startOAuthFixture(`http://localhost:${port}`, { user: { subject: 'provider-user-wasmtime', email: uniqueEmail('provider'), emailVerified: true } });
    server = await startMailingWasmtime(wasmtime!, python!, { port, guestEnv: { ...fixture.env, ...operator.env, AUTH_CLIENT_MAX_ATTEMPTS_PER_MINUTE: '1000' } });
  }, 600_000);
  afterAll(async () => {
    await server?.stop();
    await fixture?.provider.stop();
  });

  const admin = async (method: string, path: string, token?: string) =>
    fetch(`${server.url}${path}`, { method, headers: { authorization: `Bearer ${token ?? (await operator.mint())}` } });
  const passkeySignIn = (key: SoftwarePasskey) => signInWith(server, key);
  const providerSignIn = () => signInThroughProvider(server.url);

  it('refuses a forged and a wrong-audience token', async () => {
    const forger = await operatorIssuer(operator.kid);
    await expectError(await admin('GET', '/api/admin/users', await forger.mint()), 401, 'unauthorized');
    await expectError(await admin('GET', '/api/admin/users', await operator.mint({ aud: 'another-api' })), 401, 'unauthorized');
    await expectError(await admin('POST', `/api/admin/users/${crypto.randomUUID()}/disable`, await forger.mint()), 401, 'unauthorized');
  });

  it('finds, disables and enables accounts: sessions end at once, password, passkey and provider sign-in refused meanwhile', { timeout: 240_000 }, async () => {
    // A password account with a passkey, signed in twice; a provider account, signed in once.
    const { ada, key, passkeySession, providerSession, providerUser } = await accountsToDisable(server);

    const listed = (await (await admin('GET', `/api/admin/users?q=${encodeURIComponent(ada.email)}`)).json()) as { users: Array<{ id: string }>; next: string | null };
    expect(listed).toEqual({ users: [expect.objectContaining({ id: ada.userId, email: ada.email, disabled: false })], next: null });
    expect(await (await admin('GET', `/api/admin/users/${ada.userId}`)).json()).toMatchObject({ sign_in_methods: ['password', 'passkey'], passkeys: [{ name: 'Ada key' }] });

    expect(await (await admin('POST', `/api/admin/users/${ada.userId}/disable`)).json()).toMatchObject({ disabled: true, changed: true, sessions_ended: 2 });
    expect(await (await admin('POST', `/api/admin/users/${providerUser}/disable`)).json()).toMatchObject({ disabled: true, changed: true, sessions_ended: 1 });
    for (const session of [ada.sessionId, passkeySession, providerSession]) expect(await sessionOf(server.url, session)).toEqual({ authenticated: false });
    await expectError(await postJson(server.url, '/api/auth/password/login', { email: ada.email, password: PASSWORD }), 403, 'account_disabled');
    await expectError(await passkeySignIn(key), 403, 'account_disabled');
    await expectError(await providerSignIn(), 403, 'account_disabled');

    for (const userId of [ada.userId, providerUser]) {
      expect(await (await admin('POST', `/api/admin/users/${userId}/enable`)).json()).toMatchObject({ disabled: false, changed: true });
    }
    expect((await postJson(server.url, '/api/auth/password/login', { email: ada.email, password: PASSWORD })).status).toBe(200);
    expect((await passkeySignIn(key)).status).toBe(200);
    expect((await providerSignIn()).status).toBe(302);
  });
});
