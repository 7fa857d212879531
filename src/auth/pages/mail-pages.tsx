/**
 * The pages of the mailed-link flows, in the auth pages' design: /forgot-password (ask for a
 * reset link), /reset-password?token= (choose the new password) and /verify-email?token= (confirm
 * the address). Opening a link changes nothing (mail scanners fetch links): each page is a form
 * whose post does the work. A refused post comes back to its page (post/redirect/get) with the
 * error beside the field it concerns; the header shows the session as it is.
 */
import type { HeaderSession } from '../../web/shell.tsx';
import { Field } from './field.tsx';
import { Layout } from './layout.tsx';
import { MAIL_NOTICES, mailErrorText } from './mail-words.ts';

export interface MailPageState {
  notice?: string | undefined;
  error?: string | undefined;
  reason?: string | undefined;
  /** when a rate limit lifts (Unix seconds) */
  retryAt?: number | undefined;
  minLength: number;
  /** the time the page is drawn (for "try again in …") */
  now?: number | undefined;
  /** the email typed before a refused post, kept */
  email?: string | undefined;
  /** who is signed in, for the header */
  session?: HeaderSession | undefined;
}

const SIGNED_OUT: HeaderSession = { state: 'signed-out' };

/** The error's words, when it concerns the field (`validation`), else undefined (it shows above the form). */
function fieldError(state: MailPageState): string | undefined {
  return state.error === 'validation' ? mailErrorText(state.error, state.reason, state.minLength) : undefined;
}

/** The notice or error above the form; `fieldless`: a form without fields shows every error here. */
function Outcome(props: { state: MailPageState; id: string; fieldless?: boolean }) {
  const { state } = props;
  const notice = state.notice ? MAIL_NOTICES[state.notice] : undefined;
  const error = state.error === 'validation' && props.fieldless !== true ? undefined : mailErrorText(state.error, state.reason, state.minLength, state.retryAt, state.now);
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
    <Layout title="Forgot password" page="forgot" session={props.state.session ?? SIGNED_OUT}>
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
          <Field id="forgot-email" label="Email" name="email" type="email" autocomplete="username" value={props.state.email} error={fieldError(props.state)} />
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
    <Layout title="Choose a new password" page="reset" session={props.state.session ?? SIGNED_OUT}>
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
              error={fieldError(props.state)}
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
    <Layout title="Confirm your address" page="verify" session={props.state.session ?? SIGNED_OUT}>
      <div class="page-head">
        <h1>Confirm your email address</h1>
        <p class="lede">One step: confirm that this address is yours.</p>
      </div>
      <section class="card auth-narrow" aria-labelledby="verify-title">
        <div class="card-head">
          <h2 id="verify-title">Email verification</h2>
        </div>
        <Outcome state={props.state} id="verify" fieldless />
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
