/** The passkey ceremonies and their attacks (./ceremony-suite.ts) against the Node host on SQLite, mail through a real SMTP server (aiosmtpd). */
import { afterAll, beforeAll, describe } from 'vitest';
import { freePort, startHost, type HostProcess } from '../../harness/host-process.ts';
import { requireTool } from '../../harness/tools.ts';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { passkeyCeremonySuite } from './ceremony-suite.ts';

const python = requireTool('aiosmtpd');

describe.skipIf(!python)('passkeys on the Node host', () => {
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

  passkeyCeremonySuite(() => ({
    url: host.url,
    origin,
    logs: () => host.logs(),
    mailTo: (email, subject) => sink.waitFor((m) => m.envelope_to.includes(email) && m.subject === subject),
  }));
});
