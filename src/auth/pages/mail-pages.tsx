/**
 * The pages of the mailed-link flows, in the auth pages' design: /forgot-password (ask for a
 * reset link), /reset-password?token= (choose the new password) and /verify-email?token= (confirm
 * the address). Opening a link changes nothing (mail scanners fetch links): each page is a form
 * whose post does the work. A refused post is answered with its page at the refusal's status.
 */
import { Field } from './field.tsx';
import { Layout } from './layout.tsx';
import { MAIL_NOTICES, mailErrorText } from './mail-words.ts';

export interface MailPageState {
  notice?: string | undefined;
  error?: string | undefined;
  reason?: string | undefined;
  minLength: number;
}

function Outcome(props: { state: MailPageState; id: string }) {
  const { state } = props;
  const notice = state.notice ? MAIL_NOTICES[state.notice] : undefined;
  const error = mailErrorText(state.error, state.reason, state.minLength);
  return (
    <>
      {notice && !error && (
        <p class="notice" id={`${props.id}-notice`} role="status">
          {notice}
        </p>
      )}
      {error && (
        <p class="form-error" id={`${props.id}-error`} role="alert" data-error={state.error}>
          {error}
        </p>
      )}
    </>
  );
}

export function ForgotPasswordPage(props: { state: MailPageState }) {
  return (
    <Layout title="Forgot password" page="forgot" session={{ state: 'signed-out' }}>
      <div class="page-head">
        <h1>Forgot your password?</h1>
        <p class="lede">Type the address you signed up with: we mail it a link to choose a new password.</p>
      </div>
      <section class="card auth-narrow" aria-labelledby="forgot-title">
        <div class="card-head">
          <h2 id="forgot-title">Reset by email</h2>
        </div>
        <Outcome state={props.state} id="forgot" />
        <form method="post" action="/api/auth/password/forgot" id="forgot-form" class="form">
          <Field id="forgot-email" label="Email" name="email" type="email" autocomplete="username" />
          <button type="submit" class="button button-primary button-block">
            Send the link
          </button>
        </form>
        <p class="form-links">
          <a href="/login">Back to sign in</a>
        </p>
      </section>
    </Layout>
  );
}

export function ResetPasswordPage(props: { token: string; live: boolean; state: MailPageState }) {
  return (
    <Layout title="Choose a new password" page="reset" session={{ state: 'signed-out' }}>
      <div class="page-head">
        <h1>Choose a new password</h1>
        <p class="lede">Setting it signs the account out everywhere.</p>
      </div>
      <section class="card auth-narrow" aria-labelledby="reset-title">
        <div class="card-head">
          <h2 id="reset-title">Password reset</h2>
        </div>
        <Outcome state={props.live ? props.state : { ...props.state, error: 'not_found' }} id="reset" />
        {props.live ? (
          <form method="post" action="/api/auth/password/reset" id="reset-form" class="form">
            <input type="hidden" name="token" value={props.token} />
            <Field
              id="reset-password"
              label="New password"
              name="password"
              type="password"
              autocomplete="new-password"
              minLength={props.state.minLength}
              hint={`At least ${props.state.minLength} characters. A few unrelated words make a strong one.`}
            />
            <button type="submit" class="button button-primary button-block">
              Set the new password
            </button>
          </form>
        ) : (
          <p class="form-links">
            <a href="/forgot-password">Ask for a new link</a>
          </p>
        )}
      </section>
    </Layout>
  );
}

export function VerifyEmailPage(props: { token: string; state: MailPageState }) {
  return (
    <Layout title="Confirm your address" page="verify" session={{ state: 'signed-out' }}>
      <div class="page-head">
        <h1>Confirm your email address</h1>
        <p class="lede">One step: confirm that this address is yours.</p>
      </div>
      <section class="card auth-narrow" aria-labelledby="verify-title">
        <div class="card-head">
          <h2 id="verify-title">Email verification</h2>
        </div>
        <Outcome state={props.state} id="verify" />
        <form method="post" action="/api/auth/email/verify" id="verify-form" class="form">
          <input type="hidden" name="token" value={props.token} />
          <button type="submit" class="button button-primary button-block">
            Confirm my address
          </button>
        </form>
      </section>
    </Layout>
  );
}
