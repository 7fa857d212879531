/**
 * The operator's mail templates (`--mail-templates`, docs/operating.md "Mail templates"), against
 * the real host and a real SMTP server (aiosmtpd): a template replaces the built-in subject, text
 * and HTML, with its values filled (escaped in the HTML) and the mailed link working; a directory
 * with a file that is not a template, a value the mail does not get, or a text without its link
 * stops the start with exit 2 and names the file.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, runHostCli, startHost, tempDataDir, type HostProcess } from '../../harness/host-process.ts';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { requireTool } from '../../harness/tools.ts';
import { postJson, PASSWORD, uniqueEmail } from './support.ts';

const python = requireTool('aiosmtpd');

function templatesDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'mail-templates-'));
  for (const [name, body] of Object.entries(files)) writeFileSync(join(dir, name), body);
  return dir;
}

describe.skipIf(!python)('operator mail templates', () => {
  let sink: SmtpSink;
  let host: HostProcess;

  beforeAll(async () => {
    const port = await freePort();
    sink = await startSmtpSink(python!);
    const dir = templatesDir({
      'verify.subject.txt': 'Welcome to {{app_name}}\n',
      'verify.txt': 'Hi from the {{app_name}} crew. Confirm here:\n{{link}}\n',
      'verify.html': '<p>Hi from {{app_name}}</p><p><a href="{{link}}">Confirm</a></p>',
    });
    host = await startHost({ port, env: { SMTP_URL: sink.url, AUTH_PUBLIC_BASE_URL: `http://127.0.0.1:${port}`, APP_NAME: 'Ben & Jerry', MAIL_TEMPLATES_DIR: dir } });
  }, 120_000);
  afterAll(async () => {
    await host?.stop();
    await sink?.stop();
  });

  it("sends the operator's words with the values filled and a working link", async () => {
    const email = uniqueEmail('templated');
    expect((await postJson(host.url, '/api/auth/password/register', { email, password: PASSWORD })).status).toBe(202);
    const mail = await sink.waitFor((m) => m.envelope_to.includes(email));
    expect(mail.subject).toBe('Welcome to Ben & Jerry');
    expect(mail.text.replace(/\r\n/g, '\n')).toMatch(
      /^Hi from the Ben & Jerry crew\. Confirm here:\nhttp:\/\/127\.0\.0\.1:\d+\/verify-email\?token=[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}\n$/,
    );
    expect(mail.html).toContain('<p>Hi from Ben &amp; Jerry</p>');
    expect(mail.content_type).toBe('multipart/alternative');
    const token = /token=([A-Za-z0-9_.-]+)/.exec(mail.text)?.[1];
    expect((await postJson(host.url, '/api/auth/email/verify', { token })).status).toBe(200);
  }, 60_000);

  it.each([
    ['a file that is not a template', { 'welcome.txt': 'hi' }, 'welcome.txt'],
    ['a value the mail does not get', { 'reset.txt': '{{link}} {{password}}' }, 'reset.txt'],
    ['a text without its link', { 'verify.txt': 'Confirm your address, please.' }, 'verify.txt'],
    ['a subject of two lines', { 'reset.subject.txt': 'Reset\nBcc: x@example.com' }, 'reset.subject.txt'],
  ])(
    'refuses to start on %s, exit 2 naming the file',
    async (_, files, name) => {
      const dir = templatesDir(files);
      const { code, stderr } = await runHostCli(['--port', String(await freePort()), '--data-dir', tempDataDir()], { MAIL_TEMPLATES_DIR: dir });
      expect(code).toBe(2);
      expect(stderr).toContain(join(dir, name));
    },
    60_000,
  );
});
