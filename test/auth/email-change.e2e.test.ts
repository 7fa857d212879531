/**
 * Changing the email address against the real host on SQLite, PostgreSQL and Redis, mail through a
 * real SMTP server (aiosmtpd), the attacker's side first: a stolen session without the password
 * changes nothing and mails nothing; the link to the new address refuses another account's browser,
 * works once, and moves the claim (the old address no longer signs in, the new one does, and the
 * old one can be registered by someone else only then); an address registered by another account
 * between the request and the link refuses the change and leaves the old claim; the notice to the
 * old address undoes the change and ends every session. Then the account page in Chromium: the
 * form, the pending change, the link opened in the browser.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startHost, type HostProcess } from '../../harness/host-process.ts';
import { inCi, isolation, POSTGRES_URL, REDIS_URL, sharedServers } from '../../harness/servers.ts';
import { requireTool } from '../../harness/tools.ts';
import { launchChromium, openPage } from '../support/browser.ts';
import { linkIn, startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { cookieHeader, PASSWORD, postJson, register, sessionOf, uniqueEmail } from './support.ts';

const python = requireTool('aiosmtpd');
const chromiumTool = requireTool('chromium');
const unavailable = await sharedServers();
if (unavailable !== undefined && inCi) it('needs PostgreSQL and Redis under CI', () => expect.fail(unavailable));

const servers = isolation('email_change');
afterAll(() => servers.cleanup());

const CHANGE_SUBJECT = 'Confirm your new email address';
const NOTICE_SUBJECT = 'Your email address was changed';
const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

type Backend = { name: string; args: () => string[] };
const schema = servers.schema();
const prefix = servers.prefix();
const backends: Backend[] = [
  { name: 'sqlite', args: () => [] },
  { name: 'postgres', args: () => ['--db', 'postgres', '--postgres-url', POSTGRES_URL, '--postgres-schema', schema, '--realtime', 'local'] },
  { name: 'redis', args: () => ['--db', 'redis', '--redis-url', REDIS_URL, '--redis-prefix', prefix, '--realtime', 'local'] },
];

const login = (base: string, email: string, password = PASSWORD) => postJson(base, '/api/auth/password/login', { email, password });

describe.runIf(unavailable === undefined && python !== undefined).each(backends)('changing the email address: $name', (backend) => {
  let sink: SmtpSink;
  let host: HostProcess;

  beforeAll(async () => {
    sink = await startSmtpSink(python!);
    const port = await freePort();
    host = await startHost({ port, args: backend.args(), env: { SMTP_URL: sink.url, AUTH_PUBLIC_BASE_URL: `http://localhost:${port}` } });
  }, 60_000);
  afterAll(async () => {
    await host?.stop();
    await sink?.stop();
  });

  const mailTo = (email: string, subject: string) => sink.waitFor((m) => m.envelope_to.includes(email) && m.subject === subject);
  const requestChange = (sessionId: string, email: string, password?: string) =>
    postJson(host.url, '/api/auth/email/change', password === undefined ? { email } : { email, password }, cookieHeader(sessionId));
  const confirm = (token: string, headers: Record<string, string> = {}) => postJson(host.url, '/api/auth/email/change/confirm', { token }, headers);

  it('a stolen session without the password changes nothing and mails nothing', async () => {
    const victim = await register(host.url);
    const target = uniqueEmail('attacker');
    const before = sink.messages().length;
    expect((await requestChange(victim.sessionId, target)).status).toBe(403);
    expect((await requestChange(victim.sessionId, target, 'not the password at all')).status).toBe(403);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(
      sink
        .messages()
        .slice(before)
        .filter((m) => m.envelope_to.includes(target)),
    ).toEqual([]);
    expect((await sessionOf(host.url, victim.sessionId))['email']).toBe(victim.email);
  }, 60_000);

  it('the link moves the claim once, refuses another account, and frees the old address only then', async () => {
    const owner = await register(host.url);
    const other = await register(host.url);
    const next = uniqueEmail('moved');
    const asked = await requestChange(owner.sessionId, next, PASSWORD);
    expect(asked.status).toBe(202);
    expect(await asked.json()).toMatchObject({ status: 'accepted', email: next });
    const token = tokenOf(linkIn(await mailTo(next, CHANGE_SUBJECT), '/confirm-email-change'));
    expect(await (await fetch(`${host.url}/dashboard`, { headers: cookieHeader(owner.sessionId) })).text()).toContain(`data-email="${next}"`);
    // While the old address is claimed another registration of it changes nothing.
    expect((await postJson(host.url, '/api/auth/password/register', { email: owner.email, password: 'an intruder password!' })).status).toBe(202);
    expect((await login(host.url, owner.email, 'an intruder password!')).status).toBe(401);

    expect((await confirm(token, cookieHeader(other.sessionId))).status).toBe(403);
    expect((await login(host.url, owner.email)).status).toBe(200);
    const moved = await confirm(token);
    expect(moved.status).toBe(200);
    expect(await moved.json()).toEqual({ status: 'email_changed', email: next });
    expect((await confirm(token)).status).toBe(404);

    expect((await sessionOf(host.url, owner.sessionId))['email']).toBe(next);
    expect((await login(host.url, owner.email)).status).toBe(401);
    const signedIn = await login(host.url, next);
    expect(signedIn.status).toBe(200);
    expect(((await signedIn.json()) as { user_id: string }).user_id).toBe(owner.userId);
    expect(await (await fetch(`${host.url}/dashboard`, { headers: cookieHeader(owner.sessionId) })).text()).toContain('data-state="verified"');
    // Released: now a newcomer can have the old address.
    expect((await postJson(host.url, '/api/auth/password/register', { email: owner.email, password: 'a newcomer password' })).status).toBe(202);
    expect((await login(host.url, owner.email, 'a newcomer password')).status).toBe(200);
  }, 60_000);

  it('an address registered by another account meanwhile refuses the change and leaves the old claim', async () => {
    const owner = await register(host.url);
    const next = uniqueEmail('raced');
    expect((await requestChange(owner.sessionId, next, PASSWORD)).status).toBe(202);
    const token = tokenOf(linkIn(await mailTo(next, CHANGE_SUBJECT), '/confirm-email-change'));
    const rival = await register(host.url, next, 'the rival password');
    const refused = await confirm(token);
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('conflict');
    expect((await login(host.url, owner.email)).status).toBe(200);
    expect(((await (await login(host.url, next, 'the rival password')).json()) as { user_id: string }).user_id).toBe(rival.userId);
    expect((await sessionOf(host.url, owner.sessionId))['email']).toBe(owner.email);
  }, 60_000);

  it('the notice to the old address undoes the change and ends every session', async () => {
    const owner = await register(host.url);
    const second = await login(host.url, owner.email);
    const next = uniqueEmail('undone');
    expect((await requestChange(owner.sessionId, next, PASSWORD)).status).toBe(202);
    expect((await confirm(tokenOf(linkIn(await mailTo(next, CHANGE_SUBJECT), '/confirm-email-change')))).status).toBe(200);
    const undo = tokenOf(linkIn(await mailTo(owner.email, NOTICE_SUBJECT), '/undo-email-change'));
    const undone = await postJson(host.url, '/api/auth/email/change/undo', { token: undo });
    expect(undone.status).toBe(200);
    expect(await undone.json()).toMatchObject({ status: 'email_change_undone', address_restored: true });
    expect((await sessionOf(host.url, owner.sessionId))['authenticated']).toBe(false);
    expect(second.status).toBe(200);
    expect((await login(host.url, owner.email)).status).toBe(200);
    expect((await login(host.url, next)).status).toBe(401);
    expect((await postJson(host.url, '/api/auth/email/change/undo', { token: undo })).status).toBe(404);
  }, 60_000);
});

describe.runIf(python !== undefined && chromiumTool !== undefined)('changing the email address on the account page (Chromium)', () => {
  let sink: SmtpSink;
  let host: HostProcess;
  beforeAll(async () => {
    sink = await startSmtpSink(python!);
    const port = await freePort();
    host = await startHost({ port, env: { SMTP_URL: sink.url, AUTH_PUBLIC_BASE_URL: `http://127.0.0.1:${port}` } });
  }, 60_000);
  afterAll(async () => {
    await host?.stop();
    await sink?.stop();
  });

  it('asks with the password, shows the pending change, and the link opened in the browser changes the address', { timeout: 120_000 }, async () => {
    const browser = await launchChromium(chromiumTool!);
    try {
      const account = await register(host.url);
      const next = uniqueEmail('browser');
      const { page, close } = await openPage(browser, `${host.url}/login`);
      await page.fill('#login-form input[name=email]', account.email);
      await page.fill('#login-form input[name=password]', PASSWORD);
      await Promise.all([page.waitForURL(`${host.url}/dashboard`), page.click('#login-form button[type=submit]')]);
      // Without the password the browser's own check stops the form; a wrong one comes back refused.
      await page.fill('#email-change-email', next);
      await page.fill('#email-change-password', 'not the password at all');
      await Promise.all([page.waitForURL(/\/dashboard\?error=forbidden&form=email_change/), page.click('#email-change-form button[type=submit]')]);
      await expect.poll(() => page.locator('#email-change-error').textContent()).toContain('Not changed');
      await page.fill('#email-change-email', next);
      await page.fill('#email-change-password', PASSWORD);
      await Promise.all([page.waitForURL(/\/dashboard\?notice=email_change_sent/), page.click('#email-change-form button[type=submit]')]);
      expect(await page.locator('#email-change-pending').getAttribute('data-email')).toBe(next);
      const link = linkIn(await sink.waitFor((m) => m.envelope_to.includes(next) && m.subject === CHANGE_SUBJECT), '/confirm-email-change');
      await page.goto(link);
      await Promise.all([page.waitForURL(/\/dashboard\?notice=email_changed/), page.click('#confirm-email-change-form button[type=submit]')]);
      expect(await page.locator('#signed-in-as').textContent()).toContain(next.split('@')[0]);
      expect(await page.locator('#email-state').getAttribute('data-state')).toBe('verified');
      expect(await page.locator('#email-change-pending').count()).toBe(0);
      // The link again: refused on its page.
      await page.goto(link);
      await Promise.all([page.waitForURL(/\/confirm-email-change\?error=not_found/), page.click('#confirm-email-change-form button[type=submit]')]);
      expect(await page.locator('#confirm-error').getAttribute('data-error')).toBe('not_found');
      await close();
    } finally {
      await browser.close();
    }
  });
});
