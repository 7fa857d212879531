/**
 * The standalone component under the real `wasmtime serve` (file store) with its public base URL
 * on its own port (`http://localhost:<port>`), and a real SMTP server (aiosmtpd) for its mail: the
 * component only queues mail in the file store, so waiting for a mail drains the outbox first
 * (./mail-drain.ts). The same `MailingServer` (./mailing-server.ts) the Node host's suites get.
 */
import { freePort } from '../../harness/host-process.ts';
import type { Tool } from '../../harness/tools.ts';
import { startWasmtime, type WasmtimeProcess } from '../../harness/wasmtime-process.ts';
import { drainedMailTo } from './mail-drain.ts';
import { mailingServer, type MailingServer } from './mailing-server.ts';
import { startSmtpSink } from './smtp-sink.ts';

export interface MailingWasmtime extends MailingServer {
  readonly server: WasmtimeProcess;
}

/** `port` when the caller needs the origin first (an OAuth provider's redirect URIs); `guestEnv` adds to (or overrides) AUTH_PUBLIC_BASE_URL. */
export async function startMailingWasmtime(wasmtime: Tool, python: Tool, options: { port?: number; guestEnv?: Record<string, string> } = {}): Promise<MailingWasmtime> {
  const port = options.port ?? (await freePort());
  const origin = `http://localhost:${port}`;
  const sink = await startSmtpSink(python);
  let server: WasmtimeProcess;
  try {
    server = await startWasmtime({ port, guestEnv: { AUTH_PUBLIC_BASE_URL: origin, ...options.guestEnv } }, wasmtime.path);
  } catch (error) {
    await sink.stop();
    throw error;
  }
  return { ...mailingServer(server, sink, origin, (email, subject) => drainedMailTo(server.dataDir, sink, email, subject)), server };
}
