/**
 * /dashboard, the account page: who is signed in and how, the linked providers (and "Link
 * <provider>" for the others, once the address is verified), the user's
 * active sessions with "sign out this session" and "sign out everywhere", the address's
 * verification state (with "send a new link"), the change of address (./email-change-card.tsx), the change-password form, the sign-in methods (unlink a
 * provider, remove the password or a passkey, while another way in remains), the passkeys, and account
 * deletion (confirmed with the password, or a provider sign-in of the last 5 minutes). Every action
 * is a form post, so it works without JavaScript (passkeys aside: WebAuthn needs script); the client
 * (static/client/account/) turns them into fetches and shows times in the browser's locale and
 * zone (the server writes UTC).
 */
import type { AccountFacts, ActiveSession, OfferedProvider, SignInMethodsView } from '../application/index.ts';
import type { PasskeySummary } from '../passkeys/manage.ts';
import { Field } from './field.tsx';
import { Layout } from './layout.tsx';
import type { ReturnedRefusal } from '../rest/form-return.ts';
import { MAIL_NOTICES, mailErrorText } from './mail-words.ts';
import { tryAgainWords } from '../../text/wait-words.ts';
import { PasskeysCard } from './passkeys-card.tsx';
import { SignInMethodsCard } from './sign-in-methods-card.tsx';
import { methodsErrorText } from './sign-in-methods-words.ts';
import { EmailChangeCard } from './email-change-card.tsx';
import { emailChangeErrorText } from './email-change-words.ts';
import type { PendingChange } from '../application/index.ts';
import { signInWords } from './sign-in-words.ts';

/** One active session as the account page shows it (never the session id or its hash). */
export interface SessionRow {
  /** the public handle the revoke route takes */
  handle: string;
  current: boolean;
  device: string;
  issuedAt: number;
  lastSeenAt: number | undefined;
  expiresAt: number;
}

/** Where the session forms post; undefined while the store offers no per-session revocation. */
export interface SessionActions {
  revoke(handle: string): string;
  revokeAll: string;
}

const utc = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

function Time(props: { ms: number; id?: string }) {
  return (
    <time id={props.id} datetime={new Date(props.ms).toISOString()} data-local="datetime">
      {utc(props.ms)}
    </time>
  );
}

/**
 * An email that wraps only where it reads well on a narrow screen: after the `@` and before each
 * dot of the domain. Each part is an inline block, so it moves to the next line whole rather than
 * breaking at a hyphen or a letter; inside a part only when that part alone is wider than the line.
 */
function EmailText(props: { email: string | null }) {
  if (props.email === null) return <strong>an account without email</strong>;
  const at = props.email.lastIndexOf('@');
  const parts = at < 0 ? [props.email] : [props.email.slice(0, at + 1), ...props.email.slice(at + 1).split(/(?=\.)/)];
  return (
    <strong class="email">
      {parts.map((part) => (
        <span class="email-part">{part}</span>
      ))}
    </strong>
  );
}

function SessionItem(props: { row: SessionRow; actions: SessionActions | undefined }) {
  const { row } = props;
  const action = row.current ? '/api/auth/logout' : props.actions?.revoke(row.handle);
  return (
    <li class="session" data-session-handle={row.handle} data-current={row.current ? 'true' : undefined}>
      <div class="session-main">
        <p class="session-device">
          {row.device}
          {row.current && <span class="badge">This browser</span>}
        </p>
        <dl class="session-times">
          <div>
            <dt>Signed in</dt>
            <dd>
              <Time ms={row.issuedAt} />
            </dd>
          </div>
          <div>
            <dt>Last seen</dt>
            <dd>{row.lastSeenAt === undefined ? '—' : <Time ms={row.lastSeenAt} />}</dd>
          </div>
          <div>
            <dt>Expires</dt>
            <dd>
              <Time ms={row.expiresAt} />
            </dd>
          </div>
        </dl>
      </div>
      {action && (
        <form method="post" action={action} class="session-revoke" id={row.current ? 'logout-form' : undefined} data-revoke={row.current ? 'current' : 'other'}>
          <button type="submit" class="button button-quiet button-small">
            Sign out<span class="visually-hidden"> {row.current ? 'this browser' : row.device}</span>
            {row.current ? '' : ' this session'}
          </button>
        </form>
      )}
    </li>
  );
}

/**
 * Deletion, confirmed by the password (empty after a fresh provider sign-in); an account without a
 * password confirms with a fresh provider sign-in alone. `error`: why the last try was refused.
 */
function DeleteAccount(props: { error: string | undefined; hasPassword: boolean; withProviders: boolean }) {
  return (
    <section class="card" aria-labelledby="delete-title">
      <div class="card-head">
        <h2 id="delete-title">Delete your account</h2>
      </div>
      <p class="hint">Every session ends{props.withProviders ? ', linked providers are unlinked,' : ''} and your email and devices are erased. This cannot be undone.</p>
      {!props.hasPassword && (
        <p class="hint" id="delete-reauth-hint">
          To confirm, sign in with your provider again first, then delete within 5 minutes.
        </p>
      )}
      {props.error && (
        <p id="delete-account-error" class="form-error" role="alert">
          {props.error}
        </p>
      )}
      <form method="post" action="/api/auth/account/delete" id="delete-account-form" class="form">
        {/* Not `required`: after a provider sign-in of the last 5 minutes no password is asked. */}
        {props.hasPassword && (
          <div class="field">
            <label for="delete-password">Password</label>
            <input
              id="delete-password"
              class="input"
              name="password"
              type="password"
              autocomplete="current-password"
              aria-describedby={props.withProviders ? 'delete-password-hint' : undefined}
            />
            {props.withProviders && (
              <p id="delete-password-hint" class="field-hint">
                Leave it empty if you signed in with a provider in the last 5 minutes.
              </p>
            )}
          </div>
        )}
        <button type="submit" class="button button-danger button-block">
          Delete my account
        </button>
      </form>
    </section>
  );
}

function EmailCard(props: { facts: AccountFacts; mailOn: boolean; error: string | undefined }) {
  const { email } = props.facts;
  return (
    <section class="card" aria-labelledby="email-title">
      <div class="card-head">
        <h2 id="email-title">Email address</h2>
        <span id="email-state" class={email === 'verified' ? 'badge' : 'badge badge-warn'} data-state={email}>
          {email === 'verified' ? 'Verified' : email === 'unverified' ? 'Not verified' : 'None'}
        </span>
      </div>
      {props.error && (
        <p id="verification-error" class="form-error" role="alert">
          {props.error}
        </p>
      )}
      {email === 'unverified' && props.mailOn && (
        <>
          <p class="hint">Open the link we mailed you to confirm the address. It is how you get back in if you forget your password.</p>
          {props.mailOn && (
            <form method="post" action="/api/auth/email/verification/resend" id="resend-form" class="form">
              <button type="submit" class="button button-block">
                Send a new link
              </button>
            </form>
          )}
        </>
      )}
      {email === 'verified' && <p class="hint">{props.mailOn ? 'The address is confirmed: a password reset link can reach you.' : 'The address is confirmed.'}</p>}
    </section>
  );
}

/** "Remove my passkeys too": a passkey signs in on its own, past a new password or ended sessions. */
export function RemovePasskeysBox(props: { id: string }) {
  return (
    <label class="checkbox" for={props.id}>
      <input type="checkbox" id={props.id} name="remove_passkeys" value="on" /> Also remove every passkey of this account
    </label>
  );
}

/** Where the change-password form shows a refusal: beside the current or the new password, or above both. */
interface PasswordErrors {
  current?: string | undefined;
  next?: string | undefined;
  form?: string | undefined;
}

function passwordErrors(refusal: ReturnedRefusal | undefined, minLength: number, now: number): PasswordErrors {
  if (refusal?.form !== 'password') return {};
  const text = mailErrorText(refusal.code, refusal.reason, minLength, refusal.retryAt, now);
  if (refusal.code === 'invalid_credentials') return { current: text };
  if (refusal.code === 'validation') return refusal.reason ? { next: text } : { current: 'Enter your current password.' };
  return { form: text };
}

function PasswordCard(props: { minLength: number; errors: PasswordErrors; hasPasskeys: boolean }) {
  return (
    <section class="card" aria-labelledby="password-title">
      <div class="card-head">
        <h2 id="password-title">Change password</h2>
      </div>
      <form method="post" action="/api/auth/password/change" id="change-password-form" class="form">
        {props.errors.form && (
          <p id="change-password-error" class="form-error" role="alert">
            {props.errors.form}
          </p>
        )}
        <Field id="current-password" label="Current password" name="current_password" type="password" autocomplete="current-password" error={props.errors.current} />
        <Field
          id="new-password"
          label="New password"
          name="new_password"
          type="password"
          autocomplete="new-password"
          minLength={props.minLength}
          hint={`At least ${props.minLength} characters. Your other sessions end.`}
          error={props.errors.next}
        />
        {props.hasPasskeys && <RemovePasskeysBox id="change-remove-passkeys" />}
        <button type="submit" class="button button-block">
          Change password
        </button>
      </form>
    </section>
  );
}

/** "Link <provider>": a form post that starts the provider's flow with a link intent (src/auth/oauth/flow/link.ts). */
function LinkProviders(props: { providers: OfferedProvider[] }) {
  return (
    <div id="link-providers" class="link-providers">
      <p class="hint">Sign in with a provider too: its verified email must be this account’s address.</p>
      {props.providers.map((provider) => (
        <form method="post" action={provider.linkPath} class="link-provider">
          <button type="submit" class="button button-quiet button-block" data-link-provider={provider.id}>
            Link {provider.label}
          </button>
        </form>
      ))}
    </div>
  );
}

export interface AccountSecurity {
  facts: AccountFacts;
  mailOn: boolean;
  minLength: number;
  /** the notice of the last form post */
  notice?: string | undefined;
  /** the refused form post that led back here */
  refusal?: ReturnedRefusal | undefined;
  /** the time the page is drawn (for "try again in …") */
  now: number;
}

/** How a refused deletion asks to confirm, by what the account can confirm with. */
function deletionReauthText(hasPassword: boolean, withProviders: boolean): string {
  if (!hasPassword) return 'Not deleted: sign in with your provider again first, then delete within 5 minutes.';
  return withProviders ? 'Not deleted: enter your password, or sign in with your provider again first.' : 'Not deleted: enter your password.';
}

/** The words of a refusal of `form` on this page, else undefined. */
function refusalText(security: AccountSecurity, form: string, withProviders = false): string | undefined {
  const { refusal } = security;
  if (refusal?.form !== form) return undefined;
  if (form === 'delete' && refusal.code === 'forbidden') return deletionReauthText(security.facts.hasPassword, withProviders);
  if (form === 'delete' && refusal.code === 'rate_limited') return `Not deleted: too many attempts. ${tryAgainWords(refusal.retryAt, security.now)}`;
  return mailErrorText(refusal.code, refusal.reason, security.minLength, refusal.retryAt, security.now);
}

/** The forms that show their refusal inside their own card. */
const CARD_FORMS = new Set(['password', 'verification', 'delete', 'methods', 'email_change']);

/** `passkeys` is undefined when passkeys are not offered (no domain-name AUTH_PUBLIC_BASE_URL). */
export function DashboardPage(props: {
  session: ActiveSession;
  /** the linked providers, each with its configured label */
  providers: { id: string; label: string }[];
  /** a provider's label from its id */
  providerLabel: (id: string) => string;
  /** whether the service offers any provider at all (else no word about providers) */
  providersOffered: boolean;
  /** offered providers not linked yet, for an account whose address is verified (else empty) */
  linkable?: OfferedProvider[];
  sessions: SessionRow[];
  actions: SessionActions | undefined;
  security: AccountSecurity;
  passkeys?: PasskeySummary[] | undefined;
  /** the account's sign-in methods and which can be removed now */
  methods: SignInMethodsView;
  /** the address change card (./email-change-card.tsx), when mail is on */
  emailChange?: { pending: PendingChange | undefined } | undefined;
}) {
  const { session, security } = props;
  const { refusal } = security;
  const withProviders = props.providersOffered || props.providers.length > 0;
  const notice = security.notice ? MAIL_NOTICES[security.notice] : undefined;
  const error = refusal && !CARD_FORMS.has(refusal.form) ? mailErrorText(refusal.code, refusal.reason, security.minLength, refusal.retryAt, security.now) : undefined;
  return (
    <Layout title="Account" page="dashboard" session={{ state: 'signed-in', email: session.email }}>
      <div class="page-head">
        <h1>Your account</h1>
        <p id="signed-in-as" class="lede">
          Signed in as <EmailText email={session.email} />
        </p>
      </div>
      {notice && !refusal && (
        <p class="notice" id="account-notice" role="status">
          {notice}
        </p>
      )}
      {error && (
        <p class="form-error" id="account-error" role="alert" data-error={refusal?.code}>
          {error}
        </p>
      )}
      <div class="auth-grid">
        <section class="card" aria-labelledby="profile-title">
          <div class="card-head">
            <h2 id="profile-title">Sign-in</h2>
          </div>
          <dl class="facts">
            <div>
              <dt>Signed in with</dt>
              {/* The stored method for tests and scripts in an attribute; people read the words. */}
              <dd id="method" data-method={session.method}>
                {signInWords(session.method, session.aal, props.providerLabel)}
              </dd>
            </div>
            {(props.providersOffered || props.providers.length > 0) && (
              <div>
                <dt>Linked providers</dt>
                <dd id="providers" data-providers={props.providers.map((p) => p.id).join(' ')}>
                  {props.providers.length > 0 ? props.providers.map((p) => p.label).join(', ') : 'None yet'}
                </dd>
              </div>
            )}
            <div>
              <dt>This session expires</dt>
              <dd>
                <Time id="expires-at" ms={session.expiresAt} />
              </dd>
            </div>
          </dl>
          {props.linkable && props.linkable.length > 0 && <LinkProviders providers={props.linkable} />}
        </section>
        <section class="card" aria-labelledby="sessions-title">
          <div class="card-head">
            <h2 id="sessions-title">Active sessions</h2>
            <span class="hint" data-local="zone">
              times in UTC
            </span>
          </div>
          <p id="sessions-status" class="form-error" role="alert" hidden></p>
          <ul id="sessions" class="session-list">
            {props.sessions.map((row) => (
              <SessionItem row={row} actions={props.actions} />
            ))}
          </ul>
          {props.actions && (
            <form method="post" action={props.actions.revokeAll} id="revoke-all-form" class="session-all">
              {(props.passkeys?.length ?? 0) > 0 && <RemovePasskeysBox id="revoke-all-remove-passkeys" />}
              <button type="submit" class="button button-danger button-block">
                Sign out everywhere
              </button>
            </form>
          )}
        </section>
        {/* With mail off an unverified address has no step to offer: the card would promise a mail never sent. */}
        {(security.facts.email === 'verified' || (security.facts.email === 'unverified' && security.mailOn)) && (
          <EmailCard facts={security.facts} mailOn={security.mailOn} error={refusalText(security, 'verification')} />
        )}
        {props.emailChange && (
          <EmailChangeCard
            pending={props.emailChange.pending}
            hasPassword={security.facts.hasPassword}
            error={refusal?.form === 'email_change' ? emailChangeErrorText('email_change', refusal.code, refusal.retryAt, security.now) : undefined}
          />
        )}
        {security.facts.hasPassword && (
          <PasswordCard minLength={security.minLength} errors={passwordErrors(refusal, security.minLength, security.now)} hasPasskeys={(props.passkeys?.length ?? 0) > 0} />
        )}
        <SignInMethodsCard
          view={props.methods}
          providerLabel={props.providerLabel}
          providersOffered={withProviders}
          error={refusal?.form === 'methods' ? methodsErrorText(refusal, props.methods.hasPassword, withProviders, security.now) : undefined}
        />
        {props.passkeys && (
          <PasskeysCard
            passkeys={props.passkeys}
            canAdd={security.facts.email !== 'unverified'}
            needsPassword={security.facts.hasPassword}
            methods={props.methods.methods}
            providersOffered={withProviders}
          />
        )}
        <DeleteAccount error={refusalText(security, 'delete', withProviders)} hasPassword={security.facts.hasPassword} withProviders={withProviders} />
      </div>
    </Layout>
  );
}
