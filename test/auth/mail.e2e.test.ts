/**
 * Mail that really leaves, against the real host and a real SMTP server (aiosmtpd): verification
 * and reset links built from AUTH_PUBLIC_BASE_URL, the same answer for known and unknown
 * addresses, the attacks on links (reused, superseded, another account's) refused with nothing
 * changed, and the outbox's durability: a message queued while the SMTP server is down is
 * delivered once it is back, also across a host restart; one that never gets through is set
 * aside after MAIL_MAX_ATTEMPTS. And the configuration: no SMTP_URL is a start-up error outside
 * development, and development logs the mail instead.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, runHostCli, startHost, tempDataDir, type HostProcess } from '../../harness/host-process.ts';
import { linkIn, startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { requireTool } from '../../harness/tools.ts';
import { cookieHeader, PASSWORD, postJson, register, sessionOf, uniqueEmail } from './support.ts';

const python = requireTool('aiosmtpd');
const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const logged = (host: HostProcess, code: string) => () => host.logs().find((l) => l.code === code);

describe.skipIf(!python)('mail through a real SMTP server', () => {
  let sink: SmtpSink;
  let host: HostProcess;
  let base: string;

  beforeAll(async () => {
    sink = await startSmtpSink(python!);
    const port = await freePort();
    // The links' base differs from the address requests use: links never follow the request's Host.
    base = `http://localhost:${port}`;
    host = await startHost({ port, env: { SMTP_URL: sink.url, AUTH_PUBLIC_BASE_URL: base, AUTH_EMAIL_FROM: 'Counter <accounts@example.com>' } });
  }, 60_000);
  afterAll(async () => {
    await host?.stop();
    await sink?.stop();
  });

  const mailTo = (email: string, subject: string, from = 0) => sink.waitFor((m) => m.envelope_to.includes(email) && m.subject === subject, { from });

  it('registration mails a verification link; following it verifies the address once', async () => {
    const account = await register(host.url);
    const mail = await mailTo(account.email, 'Confirm your email address');
    expect(mail.from).toBe('Counter <accounts@example.com>');
    const link = linkIn(mail, '/verify-email');
    expect(link.startsWith(`${base}/verify-email?token=`)).toBe(true);
    const page = await fetch(`${host.url}/verify-email?token=${tokenOf(link)}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('referrer-policy')).toBe('same-origin');
    // Opening the link changed nothing yet (mail scanners fetch links).
    expect(await (await fetch(`${host.url}/dashboard`, { headers: cookieHeader(account.sessionId) })).text()).toContain('data-state="unverified"');
    expect((await postJson(host.url, '/api/auth/email/verify', { token: tokenOf(link) })).status).toBe(200);
    expect(await (await fetch(`${host.url}/dashboard`, { headers: cookieHeader(account.sessionId) })).text()).toContain('data-state="verified"');
    const reused = await postJson(host.url, '/api/auth/email/verify', { token: tokenOf(link) });
    expect(reused.status).toBe(404);
    expect(host.logs().filter((l) => l.code === 'auth_email_verified' && l.user_id === account.userId)).toHaveLength(1);
  }, 60_000);

  it('a verification link opened while signed in to another account is refused, nothing changed', async () => {
    const owner = await register(host.url);
    const other = await register(host.url);
    const link = linkIn(await mailTo(owner.email, 'Confirm your email address'), '/verify-email');
    const refused = await postJson(host.url, '/api/auth/email/verify', { token: tokenOf(link) }, cookieHeader(other.sessionId));
    expect(refused.status).toBe(403);
    expect(await (await fetch(`${host.url}/dashboard`, { headers: cookieHeader(owner.sessionId) })).text()).toContain('data-state="unverified"');
    expect(await (await fetch(`${host.url}/dashboard`, { headers: cookieHeader(other.sessionId) })).text()).toContain('data-state="unverified"');
  }, 60_000);

  it('"forgot password" answers a known and an unknown address alike; only the known one gets a link', async () => {
    const account = await register(host.url);
    const unknown = uniqueEmail('nobody');
    const answers = await Promise.all([unknown, account.email].map((email) => postJson(host.url, '/api/auth/password/forgot', { email })));
    const [a, b] = await Promise.all(answers.map(async (r) => ({ status: r.status, body: await r.text(), cache: r.headers.get('cache-control') })));
    expect(a).toEqual(b);
    expect(a?.status).toBe(202);
    await mailTo(account.email, 'Reset your password');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(sink.messages().some((m) => m.envelope_to.includes(unknown))).toBe(false);
  }, 60_000);

  it('a reset link sets the password once, ends every session and tells the address; attacks on it change nothing', async () => {
    const account = await register(host.url);
    const other = await register(host.url);
    const before = sink.messages().length;
    await postJson(host.url, '/api/auth/password/forgot', { email: account.email });
    const older = tokenOf(linkIn(await mailTo(account.email, 'Reset your password', before), '/reset-password'));
    const mid = sink.messages().length;
    await postJson(host.url, '/api/auth/password/forgot', { email: account.email });
    const newer = tokenOf(linkIn(await mailTo(account.email, 'Reset your password', mid), '/reset-password'));
    expect(newer).not.toBe(older);
    const NEW = 'a completely new passphrase';
    // A link superseded by a newer one: refused.
    expect((await postJson(host.url, '/api/auth/password/reset', { token: older, password: NEW })).status).toBe(404);
    // The link posted from a browser signed in to another account: refused.
    expect((await postJson(host.url, '/api/auth/password/reset', { token: newer, password: NEW }, cookieHeader(other.sessionId))).status).toBe(403);
    expect((await sessionOf(host.url, account.sessionId)).authenticated).toBe(true);
    expect((await postJson(host.url, '/api/auth/password/login', { email: account.email, password: PASSWORD })).status).toBe(200);
    // The newest link works, once.
    const reset = await postJson(host.url, '/api/auth/password/reset', { token: newer, password: NEW });
    expect(reset.status).toBe(200);
    expect((await sessionOf(host.url, account.sessionId)).authenticated).toBe(false);
    expect((await postJson(host.url, '/api/auth/password/login', { email: account.email, password: PASSWORD })).status).toBe(401);
    expect((await postJson(host.url, '/api/auth/password/login', { email: account.email, password: NEW })).status).toBe(200);
    await mailTo(account.email, 'Your password was changed');
    expect((await postJson(host.url, '/api/auth/password/reset', { token: newer, password: 'yet another passphrase' })).status).toBe(404);
    expect((await postJson(host.url, '/api/auth/password/login', { email: account.email, password: NEW })).status).toBe(200);
    // The other account was not touched.
    expect((await sessionOf(host.url, other.sessionId)).authenticated).toBe(true);
  }, 90_000);

  it('the logs hold no token, link or address', () => {
    const text = host.output.join('\n');
    expect(text).not.toMatch(/token=/);
    expect(text).not.toMatch(/@example\.com/);
  });
});

describe.skipIf(!python)('the outbox is durable', () => {
  it('a message queued while the SMTP server is down is delivered once it comes back', async () => {
    const smtpPort = await freePort();
    const host = await startHost({ env: { SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, MAIL_RETRY_SECONDS: '1', AUTH_PUBLIC_BASE_URL: 'http://localhost:1' } });
    let sink: SmtpSink | undefined;
    try {
      const account = await register(host.url);
      await until('a failed delivery', logged(host, 'mail_delivery_failed'));
      sink = await startSmtpSink(python!, { port: smtpPort });
      await sink.waitFor((m) => m.envelope_to.includes(account.email), { timeoutMs: 60_000 });
      const delivered = await until('the delivery log', logged(host, 'mail_delivered'));
      expect(Number(delivered.attempts)).toBeGreaterThan(1);
    } finally {
      await host.stop();
      await sink?.stop();
    }
  }, 120_000);

  it('a message queued while the SMTP server is down is delivered once it is up, across a host restart', async () => {
    const smtpPort = await freePort();
    const dataDir = tempDataDir();
    const env = { SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, MAIL_RETRY_SECONDS: '1', AUTH_PUBLIC_BASE_URL: 'http://localhost:1' };
    let host = await startHost({ dataDir, env });
    const account = await register(host.url);
    await until('a failed delivery', logged(host, 'mail_delivery_failed'));
    // Stopped between the queueing and any delivery: the message is in the store only.
    await host.stop();
    const sink = await startSmtpSink(python!, { port: smtpPort });
    try {
      host = await startHost({ dataDir, env });
      const mail = await sink.waitFor((m) => m.envelope_to.includes(account.email), { timeoutMs: 60_000 });
      expect(mail.subject).toBe('Confirm your email address');
      await until('the delivery log', logged(host, 'mail_delivered'));
      // Delivered once: the outbox no longer holds it.
      await new Promise((resolve) => setTimeout(resolve, 3000));
      expect(sink.messages().filter((m) => m.envelope_to.includes(account.email))).toHaveLength(1);
    } finally {
      await host.stop();
      await sink.stop();
    }
  }, 120_000);

  it('a message that never gets through is set aside after MAIL_MAX_ATTEMPTS', async () => {
    const smtpPort = await freePort();
    const host = await startHost({
      env: { SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, MAIL_RETRY_SECONDS: '1', MAIL_MAX_ATTEMPTS: '2', AUTH_PUBLIC_BASE_URL: 'http://localhost:1' },
    });
    try {
      await register(host.url);
      const dead = await until('a dead letter', logged(host, 'mail_dead_lettered'));
      expect(dead.attempts).toBe(2);
      expect(host.logs().filter((l) => l.code === 'mail_delivery_failed')).toHaveLength(1);
    } finally {
      await host.stop();
    }
  }, 60_000);
});

describe('mail configuration', () => {
  it('without SMTP_URL, a host listening beyond loopback exits 2', async () => {
    const port = await freePort();
    const { code, stderr } = await runHostCli(['--host', '0.0.0.0', '--port', String(port), '--data-dir', tempDataDir()]);
    expect(code).toBe(2);
    expect(stderr).toContain('mail has nowhere to go: set --smtp-url (SMTP_URL)');
  }, 60_000);

  it('an SMTP_URL that is not smtp:// or smtps:// exits 2 without echoing it', async () => {
    const { code, stderr } = await runHostCli(['--port', String(await freePort()), '--data-dir', tempDataDir()], { SMTP_URL: 'http://user:secret-pass@mail.example.com' });
    expect(code).toBe(2);
    expect(stderr).toContain('--smtp-url (SMTP_URL)');
    expect(stderr).not.toContain('secret-pass');
  }, 60_000);

  it('without SMTP_URL in development, the mail is logged on the console with its link', async () => {
    const host = await startHost({ env: { AUTH_PUBLIC_BASE_URL: 'http://localhost:1' } });
    try {
      await register(host.url);
      await until('the logged mail', logged(host, 'mail_logged'));
      // Printed readably (stderr, line by line, no JSON escapes), the link on a line of its own.
      expect(host.output.some((line) => /^│ http:\/\/localhost:1\/verify-email\?token=[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/.test(line))).toBe(true);
      expect(host.output).toContain('│ Subject: Confirm your email address');
    } finally {
      await host.stop();
    }
  }, 60_000);
});
