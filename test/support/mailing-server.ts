/**
 * What the passkey, sign-in-method and administration suites run against, on the Node host
 * (./mailing-host.ts) and under `wasmtime serve` (./mailing-wasmtime.ts) alike: a server whose
 * mail reaches a real SMTP server (aiosmtpd), its public origin, and the one way to wait for a mail.
 */
import type { ReceivedMail, SmtpSink } from './smtp-sink.ts';

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
  /** stops the server, then the SMTP server */
  stop(): Promise<void>;
}

/** A started server process and its SMTP sink as one MailingServer. */
export function mailingServer(
  server: { url: string; logs(): Array<Record<string, unknown>>; stop(): Promise<unknown> },
  sink: SmtpSink,
  origin: string,
  mailTo: MailingServer['mailTo'],
): MailingServer {
  return {
    url: server.url,
    origin,
    sink,
    logs: () => server.logs(),
    mailTo,
    async stop() {
      await server.stop();
      await sink.stop();
    },
  };
}
