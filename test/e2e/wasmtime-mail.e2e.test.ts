/**
 * Mail under `wasmtime serve`: the standalone component queues its mail in the outbox of its file
 * store (the runtime has no mail import), and `npm run mail:drain` delivers it to a real SMTP
 * server (aiosmtpd) from that data directory, beside the running server. No file of the data
 * directory holds a working link, before the drain or after it (the drain makes the link's secret
 * and writes only its hash); the mailed link verifies the address on the wasmtime server; a second
 * drain sends nothing again.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson, register } from '../auth/support.ts';
import { freePort, ROOT } from '../../harness/host-process.ts';
import { rawFiles } from '../support/raw-store.ts';
import { linkIn, startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { requireTool } from '../../harness/tools.ts';
import { prepareWasmtimeComponent, startWasmtime, type WasmtimeProcess } from '../../harness/wasmtime-process.ts';

const wasmtime = requireTool('wasmtime');
const python = requireTool('aiosmtpd');

function drain(dataDir: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'scripts', 'mail-drain.ts'), '--once', '--data-dir', dataDir], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

describe.skipIf(!wasmtime || !python)('mail under wasmtime serve, delivered by mail:drain', () => {
  let server: WasmtimeProcess;
  let sink: SmtpSink;

  beforeAll(async () => {
    prepareWasmtimeComponent(wasmtime!.path);
    const port = await freePort();
    sink = await startSmtpSink(python!);
    server = await startWasmtime({ port, guestEnv: { AUTH_PUBLIC_BASE_URL: `http://127.0.0.1:${port}` } }, wasmtime!.path);
  }, 600_000);
  afterAll(async () => {
    await server?.stop();
    await sink?.stop();
  });

  /** Every `token=` value in the data directory's files, as a reader of them would harvest them. */
  const harvested = () => [...new Set([...rawFiles(server.dataDir).matchAll(/token=([A-Za-z0-9_.{}-]+)/g)].map((m) => m[1]!))];

  it('the outbox in the file store is delivered over SMTP, once; no file holds a working link; the mailed one verifies the address', async () => {
    const account = await register(server.url);
    expect(sink.messages()).toHaveLength(0);
    const queued = harvested();
    expect(queued.length).toBeGreaterThan(0);
    for (const [i, token] of queued.entries()) expect((await postJson(server.url, '/api/auth/email/verify', { token })).status, `link ${i}`).not.toBe(200);
    const first = await drain(server.dataDir, { SMTP_URL: sink.url });
    expect(first.code, first.output).toBe(0);
    expect(first.output).toContain('"code":"mail_delivered"');
    const mail = await sink.waitFor((m) => m.envelope_to.includes(account.email));
    expect(mail.subject).toBe('Confirm your email address');
    const token = new URL(linkIn(mail, '/verify-email')).searchParams.get('token')!;
    expect(rawFiles(server.dataDir)).not.toContain(token.split('.')[1]!);
    for (const [i, found] of harvested().entries()) expect((await postJson(server.url, '/api/auth/email/verify', { token: found })).status, `link ${i}`).not.toBe(200);
    expect((await postJson(server.url, '/api/auth/email/verify', { token })).status).toBe(200);
    expect((await postJson(server.url, '/api/auth/email/verify', { token })).status).toBe(404);
    const second = await drain(server.dataDir, { SMTP_URL: sink.url });
    expect(second.code).toBe(0);
    expect(sink.messages().filter((m) => m.envelope_to.includes(account.email))).toHaveLength(1);
  }, 120_000);
});
