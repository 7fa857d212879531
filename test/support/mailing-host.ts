/**
 * A Node host that mails through a real SMTP server (aiosmtpd), its public base URL on its own
 * port (`http://localhost:<port>` unless told: a passkey's RP ID must be a domain name), and the
 * one way its suites wait for a mail. `MailingServer` is what the passkey and sign-in-method
 * suites run against, on this host and under `wasmtime serve` (./mailing-wasmtime.ts) alike.
 */
import { freePort, startHost, type HostProcess } from '../../harness/host-process.ts';
import type { Tool } from '../../harness/tools.ts';
import { startSmtpSink, type ReceivedMail, type SmtpSink } from './smtp-sink.ts';

export interface MailingServer {
  /** where requests go (http://127.0.0.1:port) */
  readonly url: string;
  /** AUTH_PUBLIC_BASE_URL's origin: a passkey's RP ID is its host */
  readonly origin: string;
  readonly sink: SmtpSink;
  /** the server's JSON log lines so far */
  logs(): Array<Record<string, unknown>>;
  /** the first mail to `email` with `subject` the SMTP server received (delivering the queue first where that is a separate step) */
  mailTo(email: string, subject: string): Promise<ReceivedMail>;
  stop(): Promise<void>;
}

export interface MailingHost extends MailingServer {
  readonly host: HostProcess;
}

/** The mail to `email` with `subject`, as `SmtpSink.waitFor` matches it. */
export const mailMatching = (email: string, subject: string) => (mail: ReceivedMail) => mail.envelope_to.includes(email) && mail.subject === subject;

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
  return {
    host,
    sink,
    url: host.url,
    origin,
    logs: () => host.logs(),
    mailTo: (email, subject) => sink.waitFor(mailMatching(email, subject)),
    async stop() {
      await host.stop();
      await sink.stop();
    },
  };
}
