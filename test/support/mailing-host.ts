/**
 * A Node host that mails through a real SMTP server (aiosmtpd), its public base URL on its own
 * port (`http://localhost:<port>` unless told: a passkey's RP ID must be a domain name).
 */
import { freePort, startHost, type HostProcess } from '../../harness/host-process.ts';
import type { Tool } from '../../harness/tools.ts';
import { mailingServer, type MailingServer } from './mailing-server.ts';
import { startSmtpSink } from './smtp-sink.ts';

export interface MailingHost extends MailingServer {
  readonly host: HostProcess;
}

/**
 * `env` adds to (or overrides) AUTH_PUBLIC_BASE_URL and SMTP_URL; `args` are the host's flags;
 * `port` when the caller needs the origin first (an OAuth provider's redirect URIs).
 */
export async function startMailingHost(
  python: Tool,
  options: { args?: string[]; env?: Record<string, string>; base?: 'localhost' | '127.0.0.1'; port?: number } = {},
): Promise<MailingHost> {
  const port = options.port ?? (await freePort());
  const origin = `http://${options.base ?? 'localhost'}:${port}`;
  const sink = await startSmtpSink(python);
  let host: HostProcess;
  try {
    host = await startHost({ port, args: options.args ?? [], env: { AUTH_PUBLIC_BASE_URL: origin, SMTP_URL: sink.url, ...options.env } });
  } catch (error) {
    await sink.stop();
    throw error;
  }
  const mailTo: MailingServer['mailTo'] = (email, subject) => sink.waitFor((mail) => mail.envelope_to.includes(email) && mail.subject === subject);
  return { ...mailingServer(host, sink, origin, mailTo), host };
}
