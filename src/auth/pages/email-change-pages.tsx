/**
 * The pages the mails of an address change open: /confirm-email-change?token= (the link mailed to
 * the new address) and /undo-email-change?token= (the notice's link to the old one). Opening a link
 * changes nothing (mail scanners fetch links): each page is a form whose post does the work
 * (src/auth/rest/email-change-routes.ts); a refused post comes back here with its error.
 */
import type { HeaderSession } from '../../web/shell.tsx';
import { EMAIL_CHANGE_PATHS } from '../rest/email-change-routes.ts';
import { emailChangeErrorText } from './email-change-words.ts';
import { Layout } from './layout.tsx';

export interface LinkPageState {
  token: string;
  session: HeaderSession;
  /** the refusal the page was sent back with */
  error?: string | undefined;
  retryAt?: number | undefined;
  now: number;
}

function Refusal(props: { form: 'confirm' | 'undo'; state: LinkPageState }) {
  const { error } = props.state;
  if (!error) return null;
  return (
    <p class="form-error" id={`${props.form}-error`} role="alert" data-error={error}>
      {emailChangeErrorText(props.form, error, props.state.retryAt, props.state.now)}
    </p>
  );
}

export function ConfirmEmailChangePage(props: { state: LinkPageState }) {
  return (
    <Layout title="Confirm your new address" page="confirm-email-change" session={props.state.session}>
      <div class="page-head">
        <h1>Confirm your new email address</h1>
        <p class="lede">One step: the account moves to this address, and the old address is told.</p>
      </div>
      <section class="card auth-narrow" aria-labelledby="confirm-title">
        <div class="card-head">
          <h2 id="confirm-title">Change of address</h2>
        </div>
        <Refusal form="confirm" state={props.state} />
        <form method="post" action={EMAIL_CHANGE_PATHS.confirm} id="confirm-email-change-form" class="form">
          <input type="hidden" name="token" value={props.state.token} />
          <button type="submit" class="button button-primary button-block">
            Use this address
          </button>
        </form>
      </section>
    </Layout>
  );
}

export function UndoEmailChangePage(props: { state: LinkPageState }) {
  return (
    <Layout title="Undo the change of address" page="undo-email-change" session={props.state.session}>
      <div class="page-head">
        <h1>Undo the change of address</h1>
        <p class="lede">The account moves back to this address if no other account has taken it, and every session of the account ends.</p>
      </div>
      <section class="card auth-narrow" aria-labelledby="undo-title">
        <div class="card-head">
          <h2 id="undo-title">It was not me</h2>
        </div>
        <Refusal form="undo" state={props.state} />
        <form method="post" action={EMAIL_CHANGE_PATHS.undo} id="undo-email-change-form" class="form">
          <input type="hidden" name="token" value={props.state.token} />
          <button type="submit" class="button button-danger button-block">
            Undo the change and sign out everywhere
          </button>
        </form>
      </section>
    </Layout>
  );
}
