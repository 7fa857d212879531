/**
 * No store holds a working mailed link, from the side of someone who can read it: a real host on
 * SQLite, PostgreSQL and Redis, mail through a real SMTP server (aiosmtpd) that is down at first.
 * With a verification and a reset mail queued (and their deliveries tried and failed), every
 * link found in the raw store (every byte of SQLite's database, -wal and -shm files; every row of
 * the schema; every key and value under the prefix) is posted to the reset and verification
 * routes: none works. Once the server is up and the mail delivered, the secret of the link it
 * carries is in none of it either, and that link sets the password.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startHost, type HostProcess } from '../../harness/host-process.ts';
import { inCi, isolation, POSTGRES_URL, REDIS_URL, sharedServers } from '../../harness/servers.ts';
import { requireTool } from '../../harness/tools.ts';
import { postgresRows, rawFiles, redisEntries } from '../support/raw-store.ts';
import { linkIn, startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { postJson, register } from './support.ts';

const python = requireTool('aiosmtpd');
const unavailable = await sharedServers();
if (unavailable !== undefined && inCi) it('needs PostgreSQL and Redis under CI', () => expect.fail(unavailable));

const servers = isolation('mail_at_rest');
afterAll(() => servers.cleanup());

type Backend = { name: string; args: () => string[]; read: (host: HostProcess) => Promise<string> };

const schema = servers.schema();
const prefix = servers.prefix();
const backends: Backend[] = [
  { name: 'sqlite', args: () => [], read: async (host) => rawFiles(host.dataDir) },
  {
    name: 'postgres',
    args: () => ['--db', 'postgres', '--postgres-url', POSTGRES_URL, '--postgres-schema', schema, '--realtime', 'local'],
    read: () => postgresRows(servers.pg(), schema),
  },
  { name: 'redis', args: () => ['--db', 'redis', '--redis-url', REDIS_URL, '--redis-prefix', prefix, '--realtime', 'local'], read: () => redisEntries(servers.redis(), prefix) },
];

const NEW_PASSWORD = 'a completely new passphrase';

/** Every `token=` value in the text, as a reader of the store would harvest them. */
const linksIn = (text: string): string[] => [...new Set([...text.matchAll(/token=([A-Za-z0-9_.{}-]+)/g)].map((m) => m[1]!))];

/** Posts each harvested token to both routes that take one: none may work. */
async function expectNoneWorks(base: string, tokens: string[]): Promise<void> {
  // Labelled by position: a token that works is a secret, not for the test's output.
  for (const [i, token] of tokens.entries()) {
    expect((await postJson(base, '/api/auth/password/reset', { token, password: NEW_PASSWORD })).status, `link ${i}`).not.toBe(200);
    expect((await postJson(base, '/api/auth/email/verify', { token })).status, `link ${i}`).not.toBe(200);
  }
}

describe.runIf(python !== undefined && unavailable === undefined).each(backends)('mailed links at rest: $name', (backend) => {
  it('the store holds no working link while the mail waits, nor the secret once it is delivered', { timeout: 180_000 }, async () => {
    const smtpPort = await freePort();
    const port = await freePort();
    const host = await startHost({
      port,
      args: backend.args(),
      env: { SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, MAIL_RETRY_SECONDS: '1', AUTH_PUBLIC_BASE_URL: `http://localhost:${port}` },
    });
    let sink: SmtpSink | undefined;
    try {
      const account = await register(host.url);
      expect((await postJson(host.url, '/api/auth/password/forgot', { email: account.email })).status).toBe(202);
      // Both mails queued, each delivery tried (and its secret's hash written) at least once.
      await expect.poll(() => host.logs().filter((l) => l['code'] === 'mail_delivery_failed').length, { timeout: 30_000 }).toBeGreaterThanOrEqual(2);

      const queued = await backend.read(host);
      const harvested = linksIn(queued);
      // The queued messages are there, links and all: the search looked in the right place.
      expect(queued).toContain(account.email);
      expect(harvested.length).toBeGreaterThanOrEqual(2);
      await expectNoneWorks(host.url, harvested);

      sink = await startSmtpSink(python!, { port: smtpPort });
      const mail = await sink.waitFor((m) => m.envelope_to.includes(account.email) && m.subject === 'Reset your password', { timeoutMs: 60_000 });
      const token = new URL(linkIn(mail, '/reset-password')).searchParams.get('token')!;
      const secret = token.split('.')[1]!;
      expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      await expect.poll(() => host.logs().filter((l) => l['code'] === 'mail_delivered').length, { timeout: 30_000 }).toBe(2);

      const delivered = await backend.read(host);
      expect(delivered).not.toContain(secret);
      await expectNoneWorks(host.url, linksIn(delivered));
      // The mailed link is the working one.
      expect((await postJson(host.url, '/api/auth/password/reset', { token, password: NEW_PASSWORD })).status).toBe(200);
      expect((await postJson(host.url, '/api/auth/password/login', { email: account.email, password: NEW_PASSWORD })).status).toBe(200);
    } finally {
      await host.stop();
      await sink?.stop();
    }
  });
});
