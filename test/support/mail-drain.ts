/**
 * `npm run mail:drain -- --once` over a `wasmtime serve` data directory, to a real SMTP server:
 * the standalone component only queues its mail in the file store, so a suite that waits for a
 * mail delivers the queue first.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../../harness/host-process.ts';
import type { ReceivedMail, SmtpSink } from './smtp-sink.ts';

/** One drain of what is due; rejects when the tool fails. */
export function drainOnce(dataDir: string, smtpUrl: string): Promise<void> {
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

/** The first mail to `email` with `subject`, draining the data directory's outbox until it arrives (the guest may queue it just after its answer). */
export async function drainedMailTo(dataDir: string, sink: SmtpSink, email: string, subject: string): Promise<ReceivedMail> {
  const match = (m: ReceivedMail) => m.envelope_to.includes(email) && m.subject === subject;
  for (let attempt = 0; attempt < 10 && !sink.messages().some(match); attempt++) await drainOnce(dataDir, sink.url);
  return sink.waitFor(match, { timeoutMs: 5_000 });
}
