/**
 * `npm run mail:drain`: delivers the mail the standalone component queued under `wasmtime serve`.
 * The runtime has no mail import, so the component writes each message to the outbox of its file
 * store (src/platform/standalone/mail-outbox.ts); this Node tool opens that data directory and
 * delivers through the Node host's own outbox, back-off and transports (host/mail/): SMTP with
 * SMTP_URL (SMTP_USER, SMTP_PASSWORD), else the console (development). Like the host, it makes each
 * message's secrets as it delivers it, their hashes going to the file store's key-value
 * (src/contract/mail-secrets.ts). It may run beside a serving wasmtime: every outbox change is one
 * exclusive commit of the file store.
 *
 *   node scripts/mail-drain.ts [--data-dir ./data/wasmtime] [--once] [--poll-seconds 2]
 *
 * `--once` delivers what is due and exits (0; a store it cannot read is logged); otherwise it keeps
 * watching until SIGINT/SIGTERM. Failed deliveries are retried after MAIL_RETRY_SECONDS (default
 * 30, doubling) and set aside after MAIL_MAX_ATTEMPTS (default 8), with the host's log codes.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../host/config.ts';
import { jsonLogger } from '../host/log.ts';
import { MailDelivery } from '../host/mail/delivery.ts';
import { MailOutbox } from '../host/mail/outbox.ts';
import { consoleTransport, smtpTransport } from '../host/mail/transport.ts';
import { openFileStorage } from '../src/platform/standalone/file-storage.ts';
import { nodeFileSystem } from './wasmtime/node-file-system.ts';
import { createPrivateFiles } from '../host/private-files.ts';

const { values } = parseArgs({
  options: { 'data-dir': { type: 'string', default: './data/wasmtime' }, once: { type: 'boolean', default: false }, 'poll-seconds': { type: 'string', default: '2' } },
});
// The file store's new files (key-value, outbox commits) are private, like those wasmtime writes (scripts/serve-wasmtime.ts).
createPrivateFiles();
const logger = jsonLogger();
// The mail options are the host's (SMTP_URL, SMTP_USER, SMTP_PASSWORD, MAIL_*), validated the same way.
let config;
try {
  config = loadConfig([], process.env);
} catch (error) {
  process.stderr.write(`mail:drain: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
}
const pollSeconds = Number(values['poll-seconds']);
if (!Number.isInteger(pollSeconds) || pollSeconds < 1) {
  process.stderr.write('mail:drain: --poll-seconds must be a whole number of seconds, at least 1\n');
  process.exit(2);
}
const storage = openFileStorage(nodeFileSystem(values['data-dir']));
const transport = config.smtpUrl ? smtpTransport({ url: config.smtpUrl, user: config.smtpUser, password: config.smtpPassword }) : consoleTransport(logger);
const delivery = new MailDelivery(new MailOutbox(storage.projections), storage.keyValue, transport, logger, {
  maxAttempts: config.mailMaxAttempts,
  retryMs: config.mailRetrySeconds * 1000,
  pollMs: pollSeconds * 1000,
  claimMs: 120_000,
});

if (values.once) {
  await delivery.runOnce();
  await delivery.stop();
} else {
  logger.log('info', `delivering the outbox of ${values['data-dir']} (${transport.kind})`, { code: 'mail_drain_started', transport: transport.kind });
  delivery.start();
  // The deliverer's timer does not hold the process: this does, until a signal.
  const keepAlive = setInterval(() => {}, 1 << 30);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      clearInterval(keepAlive);
      void delivery.stop().then(() => process.exit(0));
    });
  }
}
