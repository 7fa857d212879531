/**
 * /login: password sign-in, one button per offered OAuth provider, and registration, in the
 * counter page's design (cards, buttons, palettes). Plain form posts (the JSON routes answer forms
 * with 303 redirects), so it works without JavaScript; a failed post comes back with its error
 * next to the field it concerns and the typed email kept (never the password). A registration
 * comes back with one neutral notice and the email in the sign-in form, whether the address was
 * free or taken (no account enumeration, docs/security.md).
 */
import type { OfferedProvider } from '../application/index.ts';
import { Field } from './field.tsx';
import { Layout } from './layout.tsx';
import { placeLoginError, type LoginForm, type PlacedError } from './login-errors.ts';
import { MAIL_NOTICES } from './mail-words.ts';
import { EMAIL_CHANGE_LOGIN_NOTICES } from './email-change-words.ts';

const isEmailChangeLoginNotice = (notice: string | undefined): notice is string => (EMAIL_CHANGE_LOGIN_NOTICES as readonly (string | undefined)[]).includes(notice);

export interface LoginPageProps {
  next: string;
  error: string | undefined;
  form: string | undefined;
  /** a refused new password's reason (`too_short`, `too_long`, `unsupported_character`) */
  reason?: string | undefined;
  /** when a rate limit lifts (Unix seconds), and the time the page is drawn */
  retryAt?: number | undefined;
  now: number;
  /** `registered` after a registration form post (the same for a free and a taken email) */
  notice: string | undefined;
  /** the email typed before a failed post, echoed back */
  email: string | undefined;
  minLength: number;
  providers: OfferedProvider[];
  signedInAs: string | null | undefined;
  /** passkeys offered: the "Sign in with a passkey" button and the browser's passkey autofill on the email field */
  passkeys?: boolean;
  /** whether "Forgot password?" is offered (mail is configured) */
  canReset?: boolean | undefined;
}

function errorFor(placed: PlacedError | undefined, form: LoginForm, place: 'email' | 'password'): string | undefined {
  return placed && placed.form === form && placed.place === place ? placed.text : undefined;
}

function FormError(props: { placed: PlacedError | undefined; form: LoginForm }) {
  const { placed } = props;
  if (!placed || placed.form !== props.form || placed.place !== 'form') return null;
  return (
    <p id={`${props.form}-form-error`} class="form-error" role="alert" data-error={placed.code}>
      {placed.text}
    </p>
  );
}

/** A neutral mark for a provider button: the first letter of the configured label's last word. */
function monogram(label: string): string {
  return (label.trim().split(/\s+/).pop() ?? '?').slice(0, 1).toUpperCase();
}

export function LoginPage(props: LoginPageProps) {
  const placed = placeLoginError({ code: props.error, form: props.form, reason: props.reason, retryAt: props.retryAt }, props.email, props.minLength, props.now);
  const registered = props.notice === 'registered' && !placed;
  const email = (form: LoginForm) => (placed?.form === form || (registered && form === 'login') ? props.email : undefined);
  const signedIn = props.signedInAs !== undefined;
  const mailNotice =
    !placed && (props.notice === 'password_reset' || props.notice === 'email_verified' || props.notice === 'passkeys_removed' || isEmailChangeLoginNotice(props.notice))
      ? MAIL_NOTICES[props.notice]
      : undefined;
  return (
    <Layout title="Sign in" page="login" session={signedIn ? { state: 'signed-in', email: props.signedInAs ?? null } : { state: 'signed-out' }}>
      <div class="page-head">
        <h1>Sign in</h1>
        <p class="lede">Sign in to keep your place, or create an account in a moment.</p>
      </div>
      {signedIn && (
        <p class="notice" id="already-signed-in">
          You are signed in{props.signedInAs ? ` as ${props.signedInAs}` : ''}. <a href="/dashboard">Go to your account</a>.
        </p>
      )}
      {props.notice === 'account_deleted' && (
        <p class="notice" id="account-deleted-notice" role="status">
          Your account is deleted: its sessions have ended and your email, identities and devices are erased.
        </p>
      )}
      {registered && (
        <p class="notice" id="registered-notice" role="status">
          If the address was free, your account exists now: sign in.
        </p>
      )}
      {mailNotice && (
        <p class="notice" id="mail-notice" role="status" data-notice={props.notice}>
          {mailNotice}
        </p>
      )}
      <div class="auth-grid">
        <section class="card" aria-labelledby="login-title">
          <div class="card-head">
            <h2 id="login-title">Welcome back</h2>
          </div>
          <form method="post" action="/api/auth/password/login" id="login-form" class="form" data-error={placed?.form === 'login' ? placed.code : undefined}>
            <input type="hidden" name="next" value={props.next} />
            <FormError placed={placed} form="login" />
            {/* "webauthn" lets the browser offer passkeys in this field's autofill (WebAuthn Level 3 §5.1.4.1, conditional mediation). */}
            <Field
              id="login-email"
              label="Email"
              name="email"
              type="email"
              autocomplete={props.passkeys ? 'username webauthn' : 'username'}
              value={email('login')}
              error={errorFor(placed, 'login', 'email')}
            />
            <Field id="login-password" label="Password" name="password" type="password" autocomplete="current-password" error={errorFor(placed, 'login', 'password')} />
            <button type="submit" class="button button-primary button-block">
              Sign in
            </button>
            {props.canReset && (
              <p class="form-links">
                <a href="/forgot-password" id="forgot-password-link">
                  Forgot password?
                </a>
              </p>
            )}
          </form>
          {props.passkeys && (
            <div id="passkey-sign-in-block" class="providers">
              <p class="divider">
                <span>or</span>
              </p>
              <p id="passkey-sign-in-status" class="form-error" role="alert" hidden></p>
              <button type="button" id="passkey-sign-in" class="button provider-button button-block" data-next={props.next}>
                <span class="provider-mark" aria-hidden="true">
                  <svg
                    aria-hidden="true"
                    viewBox="0 0 24 24"
                    width="16"
                    height="16"
                    fill="none"
                    stroke="currentColor"
                    stroke-width="2"
                    stroke-linecap="round"
                    stroke-linejoin="round"
                  >
                    <circle cx="8" cy="15" r="4" />
                    <path d="M10.85 12.15 19 4M18 5l2 2M15 8l2 2" />
                  </svg>
                </span>
                Sign in with a passkey
              </button>
            </div>
          )}
          {props.providers.length > 0 && (
            <div id="providers" class="providers">
              <p class="divider">
                <span>or continue with</span>
              </p>
              <ul class="provider-list">
                {props.providers.map((p) => (
                  <li>
                    <a class="button provider-button button-block" data-provider={p.id} href={`${p.startPath}?next=${encodeURIComponent(props.next)}`}>
                      <span class="provider-mark" aria-hidden="true">
                        {monogram(p.label)}
                      </span>
                      Continue with {p.label}
                    </a>
                  </li>
                ))}
              </ul>
            </div>
          )}
        </section>
        <section class="card" aria-labelledby="register-title">
          <div class="card-head">
            <h2 id="register-title">Create an account</h2>
          </div>
          <form method="post" action="/api/auth/password/register" id="register-form" class="form" data-error={placed?.form === 'register' ? placed.code : undefined}>
            <input type="hidden" name="next" value={props.next} />
            <FormError placed={placed} form="register" />
            <Field id="register-email" label="Email" name="email" type="email" autocomplete="username" value={email('register')} error={errorFor(placed, 'register', 'email')} />
            <Field
              id="register-password"
              label="Password"
              name="password"
              type="password"
              autocomplete="new-password"
              minLength={props.minLength}
              hint={`At least ${props.minLength} characters. A few unrelated words make a strong one.`}
              error={errorFor(placed, 'register', 'password')}
            />
            <button type="submit" class="button button-block">
              Create account
            </button>
          </form>
        </section>
      </div>
    </Layout>
  );
}
