/**
 * Mail bombing through sub-addresses (docs/security.md, "Mail bombing"), against the real host and
 * a real SMTP server (aiosmtpd): 20 registrations of `box+N@example.org` (one inbox, twenty
 * addresses). What must hold: every answer is the same (a taken or free address, a mail sent or
 * not: nothing tells them apart), at most AUTH_MAIL_MAX_PER_MAILBOX_PER_HOUR verification mails
 * reach the inbox, and each one held back is logged with `auth_mail_budget_spent` naming the
 * mailbox budget, never the address.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startHost, type HostProcess } from '../../harness/host-process.ts';
import { requireTool } from '../../harness/tools.ts';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { PASSWORD, postJson } from './support.ts';

const python = requireTool('aiosmtpd');
const REGISTRATIONS = 20;
const PER_MAILBOX = 6;

describe.skipIf(!python)('mail bombing through sub-addresses', () => {
  let sink: SmtpSink;
  let host: HostProcess;
  beforeAll(async () => {
    sink = await startSmtpSink(python!);
    const port = await freePort();
    // The defaults but for the client's own budget, raised so that the mailbox's is the one met.
    host = await startHost({
      port,
      env: { SMTP_URL: sink.url, AUTH_PUBLIC_BASE_URL: `http://localhost:${port}`, AUTH_MAIL_MAX_PER_CLIENT_PER_HOUR: '1000', AUTH_CLIENT_MAX_ATTEMPTS_PER_MINUTE: '1000' },
    });
  }, 60_000);
  afterAll(async () => {
    await host?.stop();
    await sink?.stop();
  });

  it(`${REGISTRATIONS} registrations of box+N@ deliver at most ${PER_MAILBOX} mails to the inbox; the answers are all alike`, async () => {
    const box = `box${Date.now().toString(36)}`;
    const addresses = Array.from({ length: REGISTRATIONS }, (_, n) => `${box}+${n}@example.org`);
    const answers = [];
    for (const email of addresses) {
      const response = await postJson(host.url, '/api/auth/password/register', { email, password: PASSWORD });
      answers.push({ status: response.status, body: await response.text(), cookies: response.headers.getSetCookie() });
    }
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    expect(answers[0]!.status).toBe(202);

    // Every registration's mail was either queued or held back by a budget, and the queued ones delivered.
    const queued = () => host.logs().filter((l) => l['code'] === 'auth_verification_mail_queued').length;
    const heldBack = () => host.logs().filter((l) => l['code'] === 'auth_mail_budget_spent');
    await expect.poll(() => queued() + heldBack().length, { timeout: 30_000 }).toBe(REGISTRATIONS);
    const toInbox = () => sink.messages().filter((m) => m.envelope_to.some((to) => to.startsWith(`${box}+`)));
    await expect.poll(() => toInbox().length, { timeout: 30_000 }).toBe(queued());

    expect(toInbox().length).toBeGreaterThan(0);
    expect(toInbox().length).toBeLessThanOrEqual(PER_MAILBOX);
    expect(heldBack().length).toBe(REGISTRATIONS - toInbox().length);
    for (const line of heldBack()) expect(line).toMatchObject({ budget: 'mailbox', kind: 'verify' });
    expect(host.output.join('\n')).not.toContain(`${box}+`);
  }, 120_000);
});
