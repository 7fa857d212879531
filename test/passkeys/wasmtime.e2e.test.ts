/**
 * The passkey ceremonies and their attacks (./ceremony-suite.ts) under the real `wasmtime serve`
 * (the composed standalone component, file store): @simplewebauthn/server and the pure-JS
 * signatures run in the guest the same way, challenges are taken from the file store's key-value.
 * The component queues its mail in the file store; `npm run mail:drain` delivers it to a real SMTP
 * server (aiosmtpd) whenever the suite waits for a mail.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe } from 'vitest';
import { freePort, ROOT } from '../../harness/host-process.ts';
import { requireTool } from '../../harness/tools.ts';
import { startWasmtime, type WasmtimeProcess } from '../../harness/wasmtime-process.ts';
import { startSmtpSink, type ReceivedMail, type SmtpSink } from '../support/smtp-sink.ts';
import { passkeyCeremonySuite } from './ceremony-suite.ts';

const wasmtime = requireTool('wasmtime');
const python = requireTool('aiosmtpd');

/** One `mail:drain --once` over the data directory, to the sink. */
function drain(dataDir: string, smtpUrl: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'scripts', 'mail-drain.ts'), '--once', '--data-dir', dataDir], {
      env: { ...process.env, SMTP_URL: smtpUrl },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let errors = '';
    child.stderr.on('data', (chunk) => (errors += chunk));
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`mail-drain exited ${code}: ${errors}`))));
  });
}

describe.skipIf(!wasmtime || !python)('passkeys under wasmtime serve', () => {
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

  async function mailTo(email: string, subject: string): Promise<ReceivedMail> {
    const match = (m: ReceivedMail) => m.envelope_to.includes(email) && m.subject === subject;
    // The guest queues a registration's mail after its answer: drain until it has arrived.
    for (let attempt = 0; attempt < 10 && !sink.messages().some(match); attempt++) await drain(server.dataDir, sink.url);
    return sink.waitFor(match, { timeoutMs: 5_000 });
  }

  passkeyCeremonySuite(() => ({ url: server.url, origin, logs: () => server.logs(), mailTo }));
});
