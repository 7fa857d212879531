/**
 * Erased means gone from the files, not only from the rows: a real host on SQLite, an account with
 * a session from a second device, a passkey and a verification mail waiting in the outbox, then
 * `DELETE /api/auth/account` over HTTP. As soon as it has answered 204, every byte of the data
 * directory (the database, its -wal and -shm files, everything else there) is searched for the
 * address, its SHA-256 (what names the account's streams and keys), the passkey's credential id and
 * the device hint: not one hit. Before the deletion each of them is found there, so the search
 * looks in the right place.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startHost, type HostProcess } from '../../harness/host-process.ts';
import { normalizeEmail } from '../../src/auth/domain/email.ts';
import { sha256Hex } from '../../src/contract/tokens.ts';
import { rawFiles } from '../support/raw-store.ts';
import { SoftwarePasskey } from '../support/software-passkey.ts';
import { cookieHeader, PASSWORD, postJson, register, uniqueEmail } from './support.ts';

const DEVICE_UA = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';

describe('account erasure in the SQLite files', () => {
  let host: HostProcess;
  let origin: string;
  beforeAll(async () => {
    const port = await freePort();
    origin = `http://localhost:${port}`;
    // Nothing listens on port 9: the verification mail waits in the outbox, with the address.
    host = await startHost({ port, env: { AUTH_PUBLIC_BASE_URL: origin, SMTP_URL: 'smtp://127.0.0.1:9', MAIL_RETRY_SECONDS: '3600' } });
  }, 60_000);
  afterAll(async () => {
    await host?.stop();
  });

  it('leaves no copy of the address, its hash, the credential id or the device hint in the database, -wal or -shm file', { timeout: 120_000 }, async () => {
    const email = uniqueEmail('erased');
    const account = await register(host.url, email);
    expect((await postJson(host.url, '/api/auth/password/login', { email, password: PASSWORD }, { 'user-agent': DEVICE_UA })).status).toBe(200);
    const browser = { origin, 'sec-fetch-site': 'same-origin', ...cookieHeader(account.sessionId) };
    const key = new SoftwarePasskey();
    const options = await postJson(host.url, '/api/auth/passkeys/registration/options', {}, browser);
    expect(options.status).toBe(200);
    const registered = await postJson(
      host.url,
      '/api/auth/passkeys/registration/verify',
      { response: key.register(await options.json(), { origin }), name: 'Erased key' },
      browser,
    );
    expect(registered.status, await registered.clone().text()).toBe(201);
    await expect.poll(() => host.logs().some((l) => l['code'] === 'mail_delivery_failed'), { timeout: 20_000 }).toBe(true);

    const secrets = { address: email, hash: await sha256Hex(normalizeEmail(email)), credential: key.id, device: 'Firefox on Linux' };
    const before = rawFiles(host.dataDir);
    for (const [what, value] of Object.entries(secrets)) expect(before.includes(value), `${what} before the deletion`).toBe(true);

    const deleted = await fetch(`${host.url}/api/auth/account`, {
      method: 'DELETE',
      headers: { ...cookieHeader(account.sessionId), 'content-type': 'application/json' },
      body: JSON.stringify({ password: PASSWORD }),
    });
    expect(deleted.status).toBe(204);

    const after = rawFiles(host.dataDir);
    const found = Object.entries(secrets).flatMap(([what, value]) => {
      const hits = after.split(value).length - 1;
      return hits > 0 ? [`${what}: ${hits}`] : [];
    });
    expect(found).toEqual([]);
  });
});
