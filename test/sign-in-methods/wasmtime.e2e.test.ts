/**
 * Managing sign-in methods (./suite.ts) under the real `wasmtime serve` (the composed standalone
 * component, file store): the rule, the re-authentication, the one-change-at-a-time counter in the
 * file store's key-value and the removals run in the guest the same way. The component queues its
 * mail in the file store; `npm run mail:drain` delivers it to a real SMTP server (aiosmtpd)
 * whenever the suite waits for a mail.
 */
import { afterAll, beforeAll, describe } from 'vitest';
import { freePort } from '../../harness/host-process.ts';
import { requireTool } from '../../harness/tools.ts';
import { startWasmtime, type WasmtimeProcess } from '../../harness/wasmtime-process.ts';
import { drainedMailTo } from '../support/mail-drain.ts';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { signInMethodsSuite } from './suite.ts';

const wasmtime = requireTool('wasmtime');
const python = requireTool('aiosmtpd');

describe.skipIf(!wasmtime || !python)('sign-in methods under wasmtime serve', () => {
  let server: WasmtimeProcess;
  let sink: SmtpSink;
  let origin: string;
  beforeAll(async () => {
    sink = await startSmtpSink(python!);
    const port = await freePort();
    origin = `http://localhost:${port}`;
    // Every client is `unknown` under wasmtime serve, so the suite's calls share one per-client budget.
    server = await startWasmtime({ port, guestEnv: { AUTH_PUBLIC_BASE_URL: origin, AUTH_CLIENT_MAX_ATTEMPTS_PER_MINUTE: '1000' } }, wasmtime!.path);
  }, 600_000);
  afterAll(async () => {
    await server?.stop();
    await sink?.stop();
  });

  signInMethodsSuite(() => ({ url: server.url, origin, mailTo: (email, subject) => drainedMailTo(server.dataDir, sink, email, subject) }));
});
