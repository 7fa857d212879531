/**
 * The administration API (/api/admin) on a real Node host over SQLite, PostgreSQL and Redis, over
 * real sockets. The attacks first: every route refuses a missing, forged (another key, HS256 made
 * with the public key, `alg: none`), expired, wrong-issuer or wrong-audience token with 401 and a
 * single-factor or role-less one with 403, and none of them changes anything. Then, on each
 * backend: search by address prefix a page at a time (in account id order, a bounded scan), one
 * account's summary (no hash, token or session id in it), disable (its sessions end at once;
 * password, passkey and provider sign-in are refused with 403 `account_disabled`) and enable,
 * ending sessions, the reset mail (delivered to a real SMTP server), deletion; each action counted
 * by storage status. And `npm run admin` driving it with ADMIN_TOKEN.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { base64url, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, ROOT, startHost, type HostProcess } from '../../harness/host-process.ts';
import { inCi, isolation, POSTGRES_URL, REDIS_URL, sharedServers } from '../../harness/servers.ts';
import { startOAuthFixture, type OAuthFixture } from '../support/oauth-provider/fixture.ts';
import { providerSignIn as signInThroughProvider } from '../support/oauth-provider/provider-sign-in.ts';
import { OPERATOR_AUDIENCE, OPERATOR_ISSUER, operatorIssuer } from '../support/operator-token.ts';
import { requireTool } from '../../harness/tools.ts';
import { startMailingHost, type MailingHost } from '../support/mailing-host.ts';
import { accountsToDisable } from '../support/accounts-to-disable.ts';
import { passkeySignIn as signInWith } from '../support/passkey-account.ts';
import { linkIn } from '../support/smtp-sink.ts';
import type { SoftwarePasskey } from '../support/software-passkey.ts';
import { expectError, PASSWORD, postJson, register, sessionIdFrom, sessionOf, uniqueEmail } from './support.ts';

const python = requireTool('aiosmtpd');
const unavailable = await sharedServers();
if (unavailable !== undefined && inCi) it('needs PostgreSQL and Redis under CI', () => expect.fail(unavailable));

const servers = isolation('admin');
afterAll(() => servers.cleanup());

const operator = await operatorIssuer();
const adminToken = () => operator.mint({ sub: 'admin-test' });
const admin = async (base: string, method: string, path: string, body?: unknown, token?: string) =>
  fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token ?? (await adminToken())}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const eventCounts = async (base: string) => ((await (await admin(base, 'GET', '/api/auth/storage/status')).json()) as { events: Record<string, number> }).events;

interface UserLine {
  id: string;
  email: string | null;
  created_at: string;
  disabled: boolean;
}

describe('the administration API refuses every token but an AAL2 system administrator’s', () => {
  let host: HostProcess;
  let victim: { email: string; sessionId: string; userId: string };
  beforeAll(async () => {
    host = await startHost({ env: operator.env });
    victim = await register(host.url);
  }, 120_000);
  afterAll(async () => {
    await host?.stop();
  });

  const now = () => Math.floor(Date.now() / 1000);
  const claims = () => ({ iss: OPERATOR_ISSUER, aud: OPERATOR_AUDIENCE, sub: 'attacker', amr: ['pwd', 'otp'], roles: ['system_admin'], iat: now(), exp: now() + 300 });
  const part = (value: object) => base64url.encode(JSON.stringify(value));
  const routes = () => [
    ['GET', '/api/admin/users'],
    ['GET', `/api/admin/users/${victim.userId}`],
    ['POST', `/api/admin/users/${victim.userId}/disable`],
    ['POST', `/api/admin/users/${victim.userId}/sessions/revoke`],
    ['POST', `/api/admin/users/${victim.userId}/reset-link`],
    ['DELETE', `/api/admin/users/${victim.userId}`],
  ];
  const refusedTokens = async (): Promise<Array<[string, string | undefined, number]>> => {
    const other = await operatorIssuer(operator.kid);
    return [
      ['no token', undefined, 401],
      ['not a JWT', 'not.a.jwt', 401],
      ['another key with the trusted kid', await other.mint(), 401],
      [
        'HS256 with the public key as secret',
        await new SignJWT(claims()).setProtectedHeader({ alg: 'HS256', kid: operator.kid }).sign(new TextEncoder().encode(operator.publicJwks)),
        401,
      ],
      ['alg none', `${part({ alg: 'none', kid: operator.kid })}.${part(claims())}.`, 401],
      ['expired', await operator.mint({}, { expiresIn: now() - 120, issuedAt: now() - 180 }), 401],
      ['wrong audience', await operator.mint({ aud: 'wasi-counter-auth:another-api' }), 401],
      ['wrong issuer', await operator.mint({ iss: 'someone-else' }), 401],
      ['single factor (aal1)', await operator.mint({ amr: ['pwd'] }), 403],
      ['no system_admin role', await operator.mint({ roles: ['support'] }), 403],
    ];
  };

  it('401 without a valid token (with WWW-Authenticate: Bearer), 403 without AAL2 or the role, on every route', { timeout: 120_000 }, async () => {
    for (const [name, token, status] of await refusedTokens()) {
      for (const [method, path] of routes()) {
        const response = await fetch(`${host.url}${path}`, {
          method,
          headers: { ...(token === undefined ? {} : { authorization: `Bearer ${token}` }), 'content-type': 'application/json' },
          body: method === 'POST' ? '{"all":true}' : undefined,
        });
        expect(response.status, `${name}: ${method} ${path}`).toBe(status);
        const body = (await response.json()) as { error: { code: string; message: string } };
        expect(body.error.code).toBe(status === 401 ? 'unauthorized' : 'forbidden');
        if (status === 401) expect(response.headers.get('www-authenticate')).toBe('Bearer');
      }
    }
    // None of them did anything: the account signs in, its session lives, nothing was counted.
    expect(await sessionOf(host.url, victim.sessionId)).toMatchObject({ authenticated: true, user_id: victim.userId });
    expect((await postJson(host.url, '/api/auth/password/login', { email: victim.email, password: PASSWORD })).status).toBe(200);
    const events = await eventCounts(host.url);
    for (const kind of ['auth_account_disabled', 'auth_admin_sessions_revoked', 'auth_admin_reset_link_sent', 'auth_admin_account_deleted']) expect(events[kind]).toBe(0);
  });

  it('a valid token gets through; an id that names no account is 404', async () => {
    expect((await admin(host.url, 'GET', '/api/admin/users')).status).toBe(200);
    await expectError(await admin(host.url, 'GET', `/api/admin/users/${crypto.randomUUID()}`), 404, 'not_found');
    await expectError(await admin(host.url, 'GET', '/api/admin/users/not-an-id'), 404, 'not_found');
  });
});

type Backend = { name: string; args: () => string[] };
const schema = servers.schema();
const prefix = servers.prefix();
const BACKENDS: Backend[] = [
  { name: 'sqlite', args: () => ['--db', 'sqlite'] },
  { name: 'postgres', args: () => ['--db', 'postgres', '--postgres-url', POSTGRES_URL, '--postgres-schema', schema, '--realtime', 'local'] },
  { name: 'redis', args: () => ['--db', 'redis', '--redis-url', REDIS_URL, '--redis-prefix', prefix, '--realtime', 'local'] },
];

describe.runIf(unavailable === undefined && python !== undefined).each(BACKENDS)('administration on $name', (backend) => {
  let host: MailingHost;
  let fixture: OAuthFixture;
  beforeAll(async () => {
    const port = await freePort();
    // localhost, not 127.0.0.1: a passkey's RP ID is a domain name.
    fixture = await startOAuthFixture(`http://localhost:${port}`, { user: { subject: `provider-user-${backend.name}`, email: uniqueEmail('provider'), emailVerified: true } });
    // A real SMTP server: a passkey is added to a verified address, and the reset link is mailed.
    host = await startMailingHost(python!, { port, args: backend.args(), env: { ...fixture.env, ...operator.env } });
  }, 120_000);
  afterAll(async () => {
    await host?.stop();
    await fixture?.provider.stop();
  });

  const passkeySignIn = (key: SoftwarePasskey) => signInWith(host, key);
  const providerSignIn = () => signInThroughProvider(host.url);
  const list = async (query: string) => {
    const response = await admin(host.url, 'GET', `/api/admin/users${query}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    return (await response.json()) as { users: UserLine[]; next: string | null };
  };

  it('finds accounts by address prefix, a page at a time, in account id order', { timeout: 120_000 }, async () => {
    const tag = `find${Date.now().toString(36)}`;
    const emails = ['carol', 'Alice', 'bob', 'alina'].map((name) => `${tag}-${name}@example.com`);
    const ids = new Map<string, string>();
    for (const email of emails) ids.set(email.toLowerCase(), (await register(host.url, email)).userId);
    const expected = [...ids.keys()].sort((a, b) => (ids.get(a)! < ids.get(b)! ? -1 : 1));
    const first = await list(`?q=${tag.toUpperCase()}&limit=3`);
    expect(first.users.map((u) => u.email)).toEqual(expected.slice(0, 3));
    expect(first.next).toEqual(expect.any(String));
    const second = await list(`?q=${tag}&limit=3&cursor=${first.next}`);
    expect(second).toMatchObject({ users: [{ email: expected[3], disabled: false }], next: null });
    expect((await list(`?q=${tag}-al`)).users.map((u) => u.email)).toEqual(expected.filter((e) => e.startsWith(`${tag}-al`)));
    expect(await list('?q=nobody-has-this-prefix')).toEqual({ users: [], next: null });
    await expectError(await admin(host.url, 'GET', '/api/admin/users?limit=0'), 400, 'validation');
    await expectError(await admin(host.url, 'GET', '/api/admin/users?cursor=***'), 400, 'validation');
    // Any cursor of the documented shape is a place to start from, even one no page gave (U+0000 included).
    expect((await list(`?q=${tag}&cursor=AAAA`)).users).toHaveLength(4);
  });

  it('disables an account: its sessions end at once, password, passkey and provider sign-in are refused; enabling lets it back in', { timeout: 180_000 }, async () => {
    // A password account with a passkey, signed in twice; a provider account, signed in once.
    const { ada, key, passkeySession, providerSession, providerUser } = await accountsToDisable(host);

    const summary = await admin(host.url, 'GET', `/api/admin/users/${ada.userId}`);
    expect(summary.status).toBe(200);
    const shown = (await summary.json()) as Record<string, unknown>;
    expect(shown).toMatchObject({ id: ada.userId, email: ada.email, disabled: false, sign_in_methods: ['password', 'passkey'], passkeys: [{ name: 'Ada key' }] });
    expect(shown['sessions']).toHaveLength(2);
    const text = JSON.stringify(shown);
    for (const secret of [ada.sessionId, passkeySession, key.id, key.publicKey]) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/[0-9a-f]{64}|\$argon2|\$scrypt/);

    for (const userId of [ada.userId, providerUser]) {
      const disabled = await admin(host.url, 'POST', `/api/admin/users/${userId}/disable`);
      expect(disabled.status).toBe(200);
      expect(await disabled.json()).toMatchObject({ id: userId, disabled: true, changed: true });
    }
    // At once: the next request of each session is signed out.
    for (const session of [ada.sessionId, passkeySession, providerSession]) expect(await sessionOf(host.url, session)).toEqual({ authenticated: false });
    await expectError(await postJson(host.url, '/api/auth/password/login', { email: ada.email, password: PASSWORD }), 403, 'account_disabled');
    await expectError(await passkeySignIn(key), 403, 'account_disabled');
    await expectError(await providerSignIn(), 403, 'account_disabled');
    // The wrong password says only that.
    await expectError(await postJson(host.url, '/api/auth/password/login', { email: ada.email, password: 'not the password at all' }), 401, 'invalid_credentials');
    expect((await list(`?q=${encodeURIComponent(ada.email)}`)).users).toEqual([expect.objectContaining({ id: ada.userId, disabled: true })]);
    expect(await (await admin(host.url, 'GET', `/api/admin/users/${ada.userId}`)).json()).toMatchObject({ disabled: true, access_changed_by: 'admin-test', sessions: [] });

    for (const userId of [ada.userId, providerUser]) {
      expect(await (await admin(host.url, 'POST', `/api/admin/users/${userId}/enable`)).json()).toMatchObject({ disabled: false, changed: true });
    }
    expect((await postJson(host.url, '/api/auth/password/login', { email: ada.email, password: PASSWORD })).status).toBe(200);
    expect((await passkeySignIn(key)).status).toBe(200);
    expect((await providerSignIn()).status).toBe(302);
    expect(host.host.output.join('\n')).not.toContain(ada.sessionId);
  });

  it('ends one session by its handle or all of them, mails a reset link, deletes; each action counted by storage status', { timeout: 120_000 }, async () => {
    const before = await eventCounts(host.url);
    const bob = await register(host.url);
    const second = sessionIdFrom(await postJson(host.url, '/api/auth/password/login', { email: bob.email, password: PASSWORD }))!;
    const shown = (await (await admin(host.url, 'GET', `/api/admin/users/${bob.userId}`)).json()) as { sessions: Array<{ id: string; issued_at: string }> };
    const newest = shown.sessions[0]!;
    await expectError(await admin(host.url, 'POST', `/api/admin/users/${bob.userId}/sessions/revoke`, { handle: 'A'.repeat(22) }), 404, 'not_found');
    await expectError(await admin(host.url, 'POST', `/api/admin/users/${bob.userId}/sessions/revoke`, {}), 400, 'validation');
    expect(await (await admin(host.url, 'POST', `/api/admin/users/${bob.userId}/sessions/revoke`, { handle: newest.id })).json()).toEqual({ revoked: 1 });
    expect(await sessionOf(host.url, second)).toEqual({ authenticated: false });
    expect(await sessionOf(host.url, bob.sessionId)).toMatchObject({ authenticated: true });
    expect(await (await admin(host.url, 'POST', `/api/admin/users/${bob.userId}/sessions/revoke`, { all: true })).json()).toEqual({ revoked: 1 });
    expect(await sessionOf(host.url, bob.sessionId)).toEqual({ authenticated: false });

    const reset = await admin(host.url, 'POST', `/api/admin/users/${bob.userId}/reset-link`);
    expect(reset.status).toBe(202);
    expect(await reset.json()).toEqual({ status: 'queued' });
    expect(linkIn(await host.mailTo(bob.email, 'Reset your password'), '/reset-password')).toContain('token=');

    expect((await admin(host.url, 'DELETE', `/api/admin/users/${bob.userId}`)).status).toBe(204);
    await expectError(await admin(host.url, 'GET', `/api/admin/users/${bob.userId}`), 404, 'not_found');
    expect((await list(`?q=${encodeURIComponent(bob.email)}`)).users).toEqual([]);
    await expectError(await postJson(host.url, '/api/auth/password/login', { email: bob.email, password: PASSWORD }), 401, 'invalid_credentials');
    expect((await register(host.url, bob.email)).userId).not.toBe(bob.userId);

    const after = await eventCounts(host.url);
    expect(after['auth_admin_sessions_revoked']! - before['auth_admin_sessions_revoked']!).toBe(2);
    expect(after['auth_admin_reset_link_sent']! - before['auth_admin_reset_link_sent']!).toBe(1);
    expect(after['auth_admin_account_deleted']! - before['auth_admin_account_deleted']!).toBe(1);
    const logged = host.logs().filter((l) => typeof l['code'] === 'string' && (l['code'] as string).startsWith('auth_admin_'));
    expect(logged.every((l) => l['subject'] === 'admin-test')).toBe(true);
  });

  it('npm run admin lists, shows and disables with ADMIN_TOKEN', { timeout: 120_000 }, async () => {
    const carol = await register(host.url);
    const run = async (...args: string[]) =>
      (
        await promisify(execFile)(process.execPath, [join(ROOT, 'scripts', 'admin.ts'), ...args], {
          env: { PATH: process.env.PATH ?? '', ADMIN_TOKEN: await adminToken(), ADMIN_URL: host.url },
          encoding: 'utf8',
        })
      ).stdout;
    expect(await run('users', 'list', '--q', carol.email)).toContain(`${carol.userId}  ${carol.email}`);
    expect(await run('user', 'show', carol.userId)).toMatch(/sign-in methods: password[\s\S]*1 live session/);
    expect(await run('user', 'disable', carol.userId)).toBe('disabled; 1 session(s) ended\n');
    expect(JSON.parse(await run('user', 'show', carol.userId, '--json'))).toMatchObject({ disabled: true });
    const refused = await promisify(execFile)(process.execPath, [join(ROOT, 'scripts', 'admin.ts'), 'users', 'list'], {
      env: { PATH: process.env.PATH ?? '', ADMIN_URL: host.url },
    }).catch((error: { code: number; stderr: string }) => error);
    expect(refused).toMatchObject({ code: 2, stderr: expect.stringContaining('ADMIN_TOKEN') });
  });
});
