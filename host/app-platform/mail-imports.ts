/**
 * The app:platform/mail import: `send` queues the message in the durable outbox (one store
 * commit; the function returns a promise and scripts/build.ts lists it as a JSPI suspending
 * import) and wakes this host's deliverer. The message's secrets are placeholders until delivery
 * (src/contract/mail-secrets.ts); a message that breaks their rules is refused (`invalid`).
 * Logs never hold the message or its addresses.
 */
import { checkMailSecrets } from '../../src/contract/mail-secrets.ts';
import type { MailMessage } from '../../src/contract/wit/interfaces/app-platform-mail.js';
import { describeError, type HostLogger } from '../log.ts';
import type { MailOutbox } from '../mail/outbox.ts';
import { StorageFailure } from '../platform-answer.ts';

export interface MailSink {
  outbox: MailOutbox;
  /** Called once a message is queued (the deliverer looks at the outbox at once). */
  queued(): void;
}

export function mailImports(sink: MailSink, logger: HostLogger) {
  return {
    'app:platform/mail': {
      send: async (message: MailMessage) => {
        const secrets = checkMailSecrets(message.text, message.secrets);
        if (typeof secrets === 'string') throw StorageFailure.invalid(secrets);
        try {
          const id = await sink.outbox.enqueue({ sender: message.sender, recipient: message.recipient, subject: message.subject, text: message.text, secrets }, Date.now());
          logger.log('info', 'mail queued', { code: 'mail_queued', id });
          sink.queued();
          return id;
        } catch (error) {
          if (error instanceof StorageFailure) throw error;
          logger.log('error', 'mail could not be queued', { code: 'mail_queue_failed', error: describeError(error) });
          throw StorageFailure.unavailable('the mail outbox is unavailable');
        }
      },
    },
  };
}
