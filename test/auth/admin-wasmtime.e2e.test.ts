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
import { startWasmtime, type WasmtimeProcess } from '../../harness/wasmtime-process.ts';
import { drainedMailTo } from '../support/mail-drain.ts';
import { startOAuthFixture, type OAuthFixture } from '../support/oauth-provider/fixture.ts';
import { providerSignIn as signInThroughProvider } from '../support/oauth-provider/provider-sign-in.ts';
import { operatorIssuer } from '../support/operator-token.ts';
import { linkIn, startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { SoftwarePasskey } from '../support/software-passkey.ts';
import { cookieHeader, expectError, PASSWORD, postJson, register, sessionIdFrom, sessionOf, uniqueEmail } from './support.ts';

const wasmtime = requireTool('wasmtime');
const python = requireTool('aiosmtpd');
const operator = await operatorIssuer();

describe.skipIf(!wasmtime || !python)('the administration API under wasmtime serve', () => {
  let server: WasmtimeProcess;
  let fixture: OAuthFixture;
  let sink: SmtpSink;
  let origin: string;
  beforeAll(async () => {
    const port = await freePort();
    // localhost, not 127.0.0.1: a passkey's RP ID is a domain name.
    origin = `http://localhost:${port}`;
    fixture = await startOAuthFixture(origin, { user: { subject: 'provider-user-wasmtime', email: uniqueEmail('provider'), emailVerified: true } });
    sink = await startSmtpSink(python!);
    server = await startWasmtime({ port, guestEnv: { ...fixture.env, ...operator.env, AUTH_CLIENT_MAX_ATTEMPTS_PER_MINUTE: '1000' } }, wasmtime!.path);
  }, 600_000);
  afterAll(async () => {
    await server?.stop();
    await fixture?.provider.stop();
    await sink?.stop();
  });

  const admin = async (method: string, path: string, token?: string) =>
    fetch(`${server.url}${path}`, { method, headers: { authorization: `Bearer ${token ?? (await operator.mint())}` } });
  const call = (path: string, body: unknown, sessionId?: string) =>
    postJson(server.url, path, body, { origin, 'sec-fetch-site': 'same-origin', ...(sessionId ? cookieHeader(sessionId) : {}) });
  const passkeySignIn = async (key: SoftwarePasskey) => {
    const options = (await (await call('/api/auth/passkeys/authentication/options', {})).json()) as { challenge: string };
    return call('/api/auth/passkeys/authentication/verify', { response: key.assert(options, { origin }) });
  };
  const providerSignIn = () => signInThroughProvider(server.url);

  it('refuses a forged and a wrong-audience token', async () => {
    const forger = await operatorIssuer(operator.kid);
    await expectError(await admin('GET', '/api/admin/users', await forger.mint()), 401, 'unauthorized');
    await expectError(await admin('GET', '/api/admin/users', await operator.mint({ aud: 'another-api' })), 401, 'unauthorized');
    await expectError(await admin('POST', `/api/admin/users/${crypto.randomUUID()}/disable`, await forger.mint()), 401, 'unauthorized');
  });

  it('finds, disables and enables accounts: sessions end at once, password, passkey and provider sign-in refused meanwhile', { timeout: 240_000 }, async () => {
    // A password account with a passkey (its address verified, the password given).
    const ada = await register(server.url);
    const verification = linkIn(await drainedMailTo(server.dataDir, sink, ada.email, 'Confirm your email address'), '/verify-email');
    expect((await call('/api/auth/email/verify', { token: new URL(verification).searchParams.get('token') })).status).toBe(200);
    const key = new SoftwarePasskey();
    const creation = await call('/api/auth/passkeys/registration/options', { password: PASSWORD }, ada.sessionId);
    expect(creation.status).toBe(200);
    const registered = await call('/api/auth/passkeys/registration/verify', { response: key.register(await creation.json(), { origin }), name: 'Ada key' }, ada.sessionId);
    expect(registered.status, await registered.clone().text()).toBe(201);
    const passkeySession = sessionIdFrom(await passkeySignIn(key))!;
    expect(await sessionOf(server.url, passkeySession)).toMatchObject({ authenticated: true, method: 'passkey' });
    // A provider account, signed in once.
    const providerFirst = await providerSignIn();
    expect(providerFirst.status).toBe(302);
    const providerSession = sessionIdFrom(providerFirst)!;
    const providerUser = (await sessionOf(server.url, providerSession))['user_id'] as string;

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
