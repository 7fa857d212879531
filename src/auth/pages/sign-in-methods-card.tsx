/**
 * The account page's "Sign-in methods" card: the password and each linked provider, each with its
 * "Remove"/"Unlink" button, disabled with the reason in plain words when it is the last way in
 * (the server checks the same rule whatever the page shows: src/auth/domain/ways-in.ts). One form
 * without script: the button pressed names the method (`method`), and the password field above
 * re-authenticates (empty right after a provider or passkey sign-in). The passkeys card's "Remove"
 * buttons submit this same form (`form="sign-in-methods-form"`).
 */
import type { SignInMethodsView, SignInMethodView } from '../application/index.ts';

export const SIGN_IN_METHODS_FORM = 'sign-in-methods-form';

/** Why a method's button is disabled, in plain words (providers named only where the service offers any). */
export function lastWayInWords(providersOffered: boolean): string {
  return `This is the only way left to sign in to your account. Add a passkey${providersOffered ? ' or link a provider' : ''} first, then you can remove it.`;
}

/** How to re-authenticate without a password, in plain words. */
export const freshSignInWords = (providersOffered: boolean) => (providersOffered ? 'a provider or a passkey' : 'a passkey');

/** The id of the paragraph that says why `view`'s button is disabled (its `aria-describedby`). */
export const reasonId = (view: SignInMethodView) => `method-reason-${view.method.replace(/[^a-z0-9]+/g, '-')}`;

/** A method's remove button, for this card and the passkeys card alike; disabled, it points to its reason (MethodReason). */
export function RemoveMethodButton(props: { view: SignInMethodView; label: string; hiddenLabel?: string }) {
  const { view } = props;
  return (
    <button
      type="submit"
      form={SIGN_IN_METHODS_FORM}
      name="method"
      value={view.method}
      class="button button-quiet button-small"
      data-remove-method={view.method}
      disabled={!view.removable}
      aria-describedby={view.removable ? undefined : reasonId(view)}
    >
      {props.label}
      {props.hiddenLabel && <span class="visually-hidden"> {props.hiddenLabel}</span>}
    </button>
  );
}

/** Why the method's button is disabled, in words, beside the method's name (nothing when it is not). */
export function MethodReason(props: { view: SignInMethodView | undefined; providersOffered: boolean }) {
  const { view } = props;
  if (!view || view.removable) return null;
  return (
    <p class="field-hint method-reason" id={reasonId(view)} data-reason={view.refusal}>
      {lastWayInWords(props.providersOffered)}
    </p>
  );
}

export function SignInMethodsCard(props: { view: SignInMethodsView; providerLabel: (id: string) => string; providersOffered: boolean; error: string | undefined }) {
  const fresh = freshSignInWords(props.providersOffered);
  const shown = props.view.methods.filter((m) => m.kind !== 'passkey');
  const passkeys = props.view.methods.length - shown.length;
  return (
    <section class="card" aria-labelledby="sign-in-methods-title" id="sign-in-methods-card">
      <div class="card-head">
        <h2 id="sign-in-methods-title">Sign-in methods</h2>
      </div>
      <p class="hint">
        Each way in works on its own. You can remove one while another remains; your other sessions end and your address is told by mail.
        {passkeys > 0 ? ` Your ${passkeys === 1 ? 'passkey counts' : `${passkeys} passkeys count`} too (remove them in Passkeys).` : ''}
      </p>
      {props.error && (
        <p id="sign-in-methods-error" class="form-error" role="alert">
          {props.error}
        </p>
      )}
      <form method="post" action="/api/auth/sign-in-methods/remove" id={SIGN_IN_METHODS_FORM} class="form">
        {props.view.hasPassword ? (
          <div class="field">
            <label for="methods-password">Your password</label>
            {/* Not `required`: after a provider or passkey sign-in of the last 5 minutes none is asked. */}
            <input id="methods-password" class="input" type="password" name="password" autocomplete="current-password" aria-describedby="methods-password-hint" />
            <p id="methods-password-hint" class="field-hint">
              Asked again before a sign-in method is removed. Leave it empty if you signed in with {fresh} in the last 5 minutes.
            </p>
          </div>
        ) : (
          <p class="hint" id="methods-reauth-hint">
            To remove a method, sign in with {fresh} again first, then remove it within 5 minutes.
          </p>
        )}
        <ul id="sign-in-methods" class="session-list">
          {shown.map((view) => (
            <li class="session" data-method={view.method}>
              <div class="session-main">
                <p class="session-device">{view.kind === 'password' ? 'Password' : props.providerLabel(view.id ?? '')}</p>
                <MethodReason view={view} providersOffered={props.providersOffered} />
              </div>
              <div class="passkey-actions">
                {view.kind === 'password' ? (
                  <RemoveMethodButton view={view} label="Remove" hiddenLabel="the password" />
                ) : (
                  <RemoveMethodButton view={view} label="Unlink" hiddenLabel={props.providerLabel(view.id ?? '')} />
                )}
              </div>
            </li>
          ))}
        </ul>
        {shown.length === 0 && <p class="hint">No password{props.providersOffered ? ' and no linked provider' : ''}: you sign in with a passkey.</p>}
      </form>
    </section>
  );
}
