/**
 * The account page's "Change email address" card: the pending change (the new address, until when
 * its link works, and a way to cancel it) and the form that asks for one, confirmed with the
 * password (or, for an account without one, a sign-in of the last 5 minutes). Form posts only
 * (src/auth/rest/email-change-routes.ts).
 */
import type { PendingChange } from '../application/index.ts';
import { EMAIL_CHANGE_PATHS } from '../rest/email-change-routes.ts';

const utc = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

export function EmailChangeCard(props: { pending: PendingChange | undefined; hasPassword: boolean; error: string | undefined }) {
  const { pending } = props;
  return (
    <section class="card" aria-labelledby="email-change-title">
      <div class="card-head">
        <h2 id="email-change-title">Change email address</h2>
      </div>
      {pending && (
        <div id="email-change-pending" data-email={pending.email}>
          <p class="hint">
            Waiting for <strong class="email">{pending.email}</strong>: open the link we mailed there before{' '}
            <time datetime={new Date(pending.expiresAt).toISOString()} data-local="datetime">
              {utc(pending.expiresAt)}
            </time>
            . Until then your address stays as it is.
          </p>
          <form method="post" action={EMAIL_CHANGE_PATHS.cancel} id="email-change-cancel-form" class="form">
            <button type="submit" class="button button-quiet button-block">
              Cancel the change
            </button>
          </form>
        </div>
      )}
      {props.error && (
        <p id="email-change-error" class="form-error" role="alert">
          {props.error}
        </p>
      )}
      <form method="post" action={EMAIL_CHANGE_PATHS.change} id="email-change-form" class="form">
        <div class="field">
          <label for="email-change-email">New address</label>
          <input id="email-change-email" class="input" name="email" type="email" autocomplete="email" required />
        </div>
        {props.hasPassword ? (
          <div class="field">
            <label for="email-change-password">Password</label>
            <input id="email-change-password" class="input" name="password" type="password" autocomplete="current-password" required />
          </div>
        ) : (
          <p class="hint" id="email-change-reauth-hint">
            To confirm, sign in again first, then change it within 5 minutes.
          </p>
        )}
        <p class="field-hint">We mail a link to the new address; the change happens when it is opened. The old address is told, with a way to undo it for 7 days.</p>
        <button type="submit" class="button button-block">
          Send the link
        </button>
      </form>
    </section>
  );
}
