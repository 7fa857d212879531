/**
 * Mail under `wasmtime serve`: the runtime has no mail import, so the component queues messages
 * in the outbox of its own file store (format: src/contract/mail-outbox.ts), and
 * `npm run mail:drain` delivers them from the data directory (docs/wasmtime.md, "Mail"), making
 * their secrets then (src/contract/mail-secrets.ts): the files never hold one.
 */
import { MAIL_OUTBOX, newOutboxEntry, newOutboxId, OUTBOX_COMMIT_RACES } from '../../contract/mail-outbox.ts';
import { checkMailSecrets } from '../../contract/mail-secrets.ts';
import { StoreError } from '../../errors.ts';
import type { Mailer, ProjectionStore } from '../ports.ts';

export function fileStoreMailer(projections: ProjectionStore, now: () => number): Mailer {
  return {
    send(message) {
      const secrets = checkMailSecrets(message.text, message.secrets ?? []);
      if (typeof secrets === 'string') throw new StoreError('invalid', secrets);
      const at = now();
      const id = newOutboxId(at);
      const html = message.html ? { html: message.html } : {};
      const body = JSON.stringify(newOutboxEntry({ sender: message.sender, recipient: message.recipient, subject: message.subject, text: message.text, ...html, secrets }, at));
      for (let race = 0; race < OUTBOX_COMMIT_RACES; race++) {
        const checkpoint = projections.checkpoint(MAIL_OUTBOX.projection);
        if (projections.commit(MAIL_OUTBOX.projection, checkpoint, checkpoint + 1n, [{ tag: 'put', val: { collection: MAIL_OUTBOX.collection, id, body } }])) return id;
      }
      throw new StoreError('unavailable', 'the mail outbox is too busy');
    },
  };
}
