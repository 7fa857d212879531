/** Managing sign-in methods (./suite.ts) on the Node host with SQLite, mail through a real SMTP server (aiosmtpd). */
import { afterAll, beforeAll, describe } from 'vitest';
import { freePort, startHost, type HostProcess } from '../../harness/host-process.ts';
import { requireTool } from '../../harness/tools.ts';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { signInMethodsSuite } from './suite.ts';

const python = requireTool('aiosmtpd');

describe.skipIf(!python)('sign-in methods on the Node host (SQLite)', () => {
  let host: HostProcess;
  let sink: SmtpSink;
  let origin: string;

  beforeAll(async () => {
    sink = await startSmtpSink(python!);
    const port = await freePort();
    origin = `http://localhost:${port}`;
    host = await startHost({ port, env: { AUTH_PUBLIC_BASE_URL: origin, SMTP_URL: sink.url, AUTH_CLIENT_MAX_ATTEMPTS_PER_MINUTE: '1000' } });
  }, 60_000);
  afterAll(async () => {
    await host?.stop();
    await sink?.stop();
  });

  signInMethodsSuite(() => ({ url: host.url, origin, mailTo: (email, subject) => sink.waitFor((m) => m.envelope_to.includes(email) && m.subject === subject) }));
});
