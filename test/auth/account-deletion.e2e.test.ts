/**
 * DELETE /api/auth/account on a real Node host over SQLite, PostgreSQL and Redis, reading the raw
 * store afterwards: the user's email and device hint appear in no row or key (events included),
 * every session of theirs has ended, someone else's session is untouched, and the same email
 * registers again. The SMTP server refuses the address for now (451), so the verification mail to
 * it waits in the outbox for its retry: it goes with the account. The attacks: no session, someone else's session
 * cannot name another account (the route deletes the caller's own), a missing or wrong password is
 * refused, a cross-site request is refused before anything runs, and a passkey of the deleted
 * account signs nobody in (its credential id and public key are gone from the store).
 */
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startHost, type HostProcess } from '../../harness/host-process.ts';
import { inCi, isolation, POSTGRES_URL, REDIS_URL, sharedServers } from '../../harness/servers.ts';
import { postgresRows, redisEntries } from '../support/raw-store.ts';
import { requireTool } from '../../harness/tools.ts';
import { addSoftwarePasskey, passkeySignIn, verifiedAccount, type AccountTarget } from '../support/passkey-account.ts';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { cookieHeader, expectError, PASSWORD, postJson, register, sessionIdFrom, sessionOf, uniqueEmail } from './support.ts';

const python = requireTool('aiosmtpd');
/** Addresses the SMTP server takes at once; every other one is refused for now (451). */
const DELIVERED = 'delivered-';

const unavailable = await sharedServers();
if (unavailable !== undefined && inCi) it('needs PostgreSQL and Redis under CI', () => expect.fail(unavailable));

const servers = isolation('erasure');
afterAll(() => servers.cleanup());

/** A device hint no other request produces: it must vanish with the account. */
const DEVICE_UA = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';

type Backend = { name: string; args: () => string[]; dump: (host: HostProcess) => Promise<string> };

const sqlite: Backend = {
  name: 'sqlite',
  args: () => ['--db', 'sqlite'],
  async dump(host) {
    const db = new DatabaseSync(join(host.dataDir, 'app.sqlite'), { readOnly: true });
    try {
      const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>).map((r) => r.name);
      return tables.map((t) => JSON.stringify(db.prepare(`SELECT * FROM "${t}"`).all(), (_, v) => (typeof v === 'bigint' ? String(v) : v))).join('\n');
    } finally {
      db.close();
    }
  },
};

const schema = servers.schema();
const postgres: Backend = {
  name: 'postgres',
  args: () => ['--db', 'postgres', '--postgres-url', POSTGRES_URL, '--postgres-schema', schema, '--realtime', 'local'],
  dump: () => postgresRows(servers.pg(), schema),
};

const prefix = servers.prefix();
const redis: Backend = {
  name: 'redis',
  args: () => ['--db', 'redis', '--redis-url', REDIS_URL, '--redis-prefix', prefix, '--realtime', 'local'],
  dump: () => redisEntries(servers.redis(), prefix),
};

const remove = (base: string, sessionId: string | undefined, body?: unknown, headers: Record<string, string> = {}) =>
  fetch(`${base}/api/auth/account`, {
    method: 'DELETE',
    headers: { ...(sessionId ? cookieHeader(sessionId) : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

describe.runIf(unavailable === undefined && python !== undefined).each([sqlite, postgres, redis])('account deletion: $name', (backend) => {
  let host: HostProcess;
  let sink: SmtpSink;
  /** AUTH_PUBLIC_BASE_URL: passkeys need a domain name for their RP ID (localhost). */
  let origin: string;
  beforeAll(async () => {
    const port = await freePort();
    origin = `http://localhost:${port}`;
    // A delivery to any address but DELIVERED's fails for now and is retried an hour later, so a
    // verification mail waits in the outbox with its address; DELIVERED's arrive (a passkey needs a
    // verified address).
    sink = await startSmtpSink(python!, { acceptOnly: DELIVERED });
    const env = { AUTH_PUBLIC_BASE_URL: origin, SMTP_URL: sink.url, MAIL_RETRY_SECONDS: '3600' };
    host = await startHost({ port, args: backend.args(), env });
  }, 120_000);
  afterAll(async () => {
    await host?.stop();
    await sink?.stop();
  });

  it('erases the email and device hints from the raw store; every session ends; the email registers again', { timeout: 120_000 }, async () => {
    const base = host.url;
    const email = uniqueEmail('erase');
    const alice = await register(base, email);
    await expect.poll(() => host!.logs().some((l) => l['code'] === 'mail_delivery_failed'), { timeout: 20_000 }).toBe(true);
    const phone = await postJson(base, '/api/auth/password/login', { email, password: PASSWORD }, { 'user-agent': DEVICE_UA });
    expect(phone.status).toBe(200);
    const phoneSession = phone.headers
      .getSetCookie()
      .find((c) => c.startsWith('wasi_auth_dev_session='))!
      .split(';')[0]!
      .split('=')[1]!;
    const bob = await register(base);
    const before = await backend.dump(host);
    expect(before).toContain(email);
    expect(before).toContain('Firefox on Linux');
    // The queued message, its address inside (a JSON body, escaped once more by the dump).
    expect(before).toMatch(new RegExp(`recipient\\\\*":\\\\*"${email.replace(/[.+]/g, '\\$&')}`));

    // Another user's session deletes its own account only: the route takes no account to name.
    expect((await remove(base, undefined, { password: PASSWORD })).status).toBe(401);
    await expectError(await remove(base, alice.sessionId), 403, 'forbidden');
    await expectError(await remove(base, alice.sessionId, { password: 'not the password at all' }), 403, 'forbidden');
    await expectError(await remove(base, alice.sessionId, { password: PASSWORD }, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }), 403, 'forbidden');
    expect(await sessionOf(base, alice.sessionId)).toMatchObject({ authenticated: true });

    const deleted = await remove(base, alice.sessionId, { password: PASSWORD });
    expect(deleted.status).toBe(204);
    expect(deleted.headers.getSetCookie().some((c) => /^wasi_auth_dev_session=;/.test(c))).toBe(true);
    // The projection runs after responses: give it a request to finish on.
    await sessionOf(base, bob.sessionId);
    await new Promise((resolve) => setTimeout(resolve, 500));

    const after = await backend.dump(host);
    expect(after).not.toContain(email);
    expect(after).not.toContain('Firefox on Linux');
    expect(after).not.toContain(alice.userId);
    expect(await sessionOf(base, alice.sessionId)).toEqual({ authenticated: false });
    expect(await sessionOf(base, phoneSession)).toEqual({ authenticated: false });
    expect(await sessionOf(base, bob.sessionId)).toMatchObject({ authenticated: true });
    expect(host.logs().some((l) => l['code'] === 'auth_account_deleted')).toBe(true);
    expect(host.output.join('\n')).not.toContain(email);

    const again = await register(base, email);
    expect(again.userId).not.toBe(alice.userId);
  });

  it("erases the account's passkeys: the passkey signs nobody in, and its credential id and public key leave the store", { timeout: 120_000 }, async () => {
    const base = host.url;
    const browser = { origin, 'sec-fetch-site': 'same-origin' };
    const target: AccountTarget = {
      url: base,
      origin,
      logs: () => host.logs(),
      mailTo: (email, subject) => sink.waitFor((m) => m.envelope_to.includes(email) && m.subject === subject),
    };

    // A passkey is added to a verified address, with the password.
    const carol = await verifiedAccount(target, uniqueEmail(`${DELIVERED}carol`));
    const { key, id: passkeyId } = await addSoftwarePasskey(target, carol.sessionId, 'Carol key');
    // A second passkey, removed before the deletion: its credential stream must go too.
    const { key: removedKey, id: removedPasskeyId } = await addSoftwarePasskey(target, carol.sessionId);
    const removal = await fetch(`${base}/api/auth/passkeys/${removedPasskeyId}`, {
      method: 'DELETE',
      headers: { 'content-type': 'application/json', ...browser, ...cookieHeader(carol.sessionId) },
      body: JSON.stringify({ password: PASSWORD }),
    });
    expect(removal.status).toBe(204);

    const before = await passkeySignIn(target, key);
    expect(before.status, await before.clone().text()).toBe(200);
    const passkeySession = sessionIdFrom(before)!;
    expect(await sessionOf(base, passkeySession)).toMatchObject({ authenticated: true, user_id: carol.userId, method: 'passkey' });
    const stored = await backend.dump(host);
    for (const secret of [key.id, key.publicKey, removedKey.id, removedKey.publicKey]) expect(stored).toContain(secret);

    const deleted = await remove(base, carol.sessionId, { password: PASSWORD });
    expect(deleted.status).toBe(204);

    const after = await passkeySignIn(target, key);
    expect(sessionIdFrom(after)).toBeUndefined();
    await expectError(after, 401, 'invalid_credentials');
    expect(await sessionOf(base, passkeySession)).toEqual({ authenticated: false });
    const erased = await backend.dump(host);
    // The passkey ids name the credential streams; the user id names the list and is in every event.
    for (const secret of [key.id, key.publicKey, removedKey.id, removedKey.publicKey, passkeyId, removedPasskeyId, carol.userId]) expect(erased).not.toContain(secret);
  });
});

describe.runIf(unavailable === undefined)('the /dashboard delete button (form post, no script)', () => {
  let host: HostProcess | undefined;
  afterAll(async () => {
    await host?.stop();
  });

  it('without the password goes back to /dashboard with the refusal; with it, to /login signed out', { timeout: 60_000 }, async () => {
    host = await startHost();
    const base = host.url;
    const user = await register(base);
    const dashboard = await (await fetch(`${base}/dashboard`, { headers: cookieHeader(user.sessionId) })).text();
    expect(dashboard).toContain('id="delete-account-form"');
    const post = (password: string) =>
      fetch(`${base}/api/auth/account/delete`, {
        method: 'POST',
        redirect: 'manual',
        headers: { ...cookieHeader(user.sessionId), 'content-type': 'application/x-www-form-urlencoded', origin: base },
        body: new URLSearchParams({ password }).toString(),
      });
    const refused = await post('');
    expect(refused.status).toBe(303);
    expect(refused.headers.get('location')).toBe('/dashboard?error=forbidden&form=delete');
    const page = await (await fetch(`${base}${refused.headers.get('location')}`, { headers: cookieHeader(user.sessionId) })).text();
    expect(page).toContain('id="delete-account-error"');
    const deleted = await post(PASSWORD);
    expect(deleted.status).toBe(303);
    expect(deleted.headers.get('location')).toBe('/login?notice=account_deleted');
    expect(await sessionOf(base, user.sessionId)).toEqual({ authenticated: false });
    expect(await (await fetch(`${base}/login?notice=account_deleted`)).text()).toContain('id="account-deleted-notice"');
  });
});
