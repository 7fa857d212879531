/**
 * A real SMTP server for the mail tests: Python's aiosmtpd (test/support/smtp-sink.py) as a child
 * process, writing each message it accepts to a directory this side reads. Never a mock: the host
 * speaks SMTP to it over TCP.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { untilReady } from '../../harness/child-output.ts';
import { freePort, tempDataDir } from '../../harness/host-process.ts';
import type { Tool } from '../../harness/tools.ts';

export interface ReceivedMail {
  envelope_to: string[];
  from: string;
  to: string;
  subject: string;
  text: string;
  /** the HTML part, or '' */
  html: string;
  /** the top-level content type, e.g. multipart/alternative */
  content_type: string;
  /** the Date header as sent */
  date: string;
}

export interface SmtpSink {
  readonly port: number;
  readonly url: string;
  /** Every message received so far, in order. */
  messages(): ReceivedMail[];
  /** Waits for a message matching `match` among those received from index `from` on (default all). */
  waitFor(match: (mail: ReceivedMail) => boolean, options?: { timeoutMs?: number; from?: number }): Promise<ReceivedMail>;
  stop(): Promise<void>;
}

/**
 * Starts the server on `port` (a free one when absent), writing into `dir` (a new one when absent);
 * with `acceptOnly`, recipients whose address does not contain it get a temporary failure (their
 * mail waits in the sender's outbox).
 */
export async function startSmtpSink(python: Tool, options: { port?: number; dir?: string; acceptOnly?: string } = {}): Promise<SmtpSink> {
  const port = options.port ?? (await freePort());
  const dir = options.dir ?? tempDataDir('smtp-sink-');
  const args = [join(import.meta.dirname, 'smtp-sink.py'), String(port), dir, ...(options.acceptOnly === undefined ? [] : [options.acceptOnly])];
  const child: ChildProcess = spawn(python.path, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  await untilReady(child, output, { name: 'smtp sink', ready: (line) => line.startsWith('ready '), timeoutMs: 20_000 });
  const messages = (): ReceivedMail[] =>
    existsSync(dir)
      ? readdirSync(dir)
          .filter((f) => f.endsWith('.json'))
          .sort()
          .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as ReceivedMail)
      : [];
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async waitFor(match, { timeoutMs = 30_000, from = 0 } = {}) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = messages().slice(from).find(match);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no matching mail within ${timeoutMs} ms; received: ${JSON.stringify(messages().map((m) => m.subject))}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGINT');
      }),
  };
}

/** The link to `path` in a mail's text. */
export function linkIn(mail: ReceivedMail, path: string): string {
  const match = new RegExp(`https?://[^\\s]+${path}\\?token=[A-Za-z0-9_.-]+`).exec(mail.text);
  if (!match) throw new Error(`no ${path} link in: ${mail.text}`);
  return match[0];
}
