/**
 * The account page's passkeys card: the user's passkeys (name, added, last used) with rename and
 * remove, and "Add a passkey". Remove is a plain form post: its button submits the "Sign-in
 * methods" form (./sign-in-methods-card.tsx: re-authentication, and never the last way in). Adding
 * and renaming need the browser's WebAuthn API and script: the client
 * (static/client/account/passkeys.ts) calls the JSON routes (src/auth/passkeys/routes.ts); the list
 * itself is server-rendered.
 */
import type { SignInMethodView } from '../application/index.ts';
import type { PasskeySummary } from '../passkeys/manage.ts';
import { MethodReason, RemoveMethodButton } from './sign-in-methods-card.tsx';

const utc = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

function PasskeyItem(props: { passkey: PasskeySummary; method: SignInMethodView | undefined; providersOffered: boolean }) {
  const { passkey } = props;
  return (
    <li class="session passkey" data-passkey-id={passkey.id}>
      <div class="session-main">
        <p class="session-device passkey-name">
          {passkey.name}
          {passkey.backed_up && <span class="badge">Synced</span>}
        </p>
        <dl class="session-times">
          <div>
            <dt>Added</dt>
            <dd>
              <time datetime={passkey.created_at} data-local="datetime">
                {utc(passkey.created_at)}
              </time>
            </dd>
          </div>
          <div>
            <dt>Last used</dt>
            <dd>
              {passkey.last_used_at === null ? (
                'never'
              ) : (
                <time datetime={passkey.last_used_at} data-local="datetime">
                  {utc(passkey.last_used_at)}
                </time>
              )}
            </dd>
          </div>
        </dl>
        <MethodReason view={props.method} providersOffered={props.providersOffered} />
      </div>
      <div class="passkey-actions">
        <button type="button" class="button button-quiet button-small" data-passkey-action="rename">
          Rename<span class="visually-hidden"> {passkey.name}</span>
        </button>
        {/* Submits the "Sign-in methods" form (re-authentication, the last-way-in rule): ./sign-in-methods-card.tsx. */}
        {props.method && <RemoveMethodButton view={props.method} label="Remove" hiddenLabel={passkey.name} />}
      </div>
    </li>
  );
}

/**
 * `canAdd`: the account's address is verified (or it has none of its own); `needsPassword`: it has a
 * password, asked again to add a passkey (src/auth/passkeys/adding-rules.ts); `methods`: the
 * account's sign-in methods, whose removal buttons the passkeys share.
 */
export function PasskeysCard(props: { passkeys: PasskeySummary[]; canAdd: boolean; needsPassword: boolean; methods: readonly SignInMethodView[]; providersOffered: boolean }) {
  return (
    <section class="card" aria-labelledby="passkeys-title" id="passkeys-card">
      <div class="card-head">
        <h2 id="passkeys-title">Passkeys</h2>
      </div>
      <p class="hint passkeys-intro">Sign in with your fingerprint, face or screen lock instead of a password. A passkey with that check counts as two factors.</p>
      <p id="passkeys-status" class="form-error" role="alert" hidden></p>
      <ul id="passkeys" class="session-list">
        {props.passkeys.map((passkey) => (
          <PasskeyItem passkey={passkey} method={props.methods.find((m) => m.kind === 'passkey' && m.id === passkey.id)} providersOffered={props.providersOffered} />
        ))}
      </ul>
      <p id="passkeys-empty" class="hint" hidden={props.passkeys.length > 0}>
        No passkey yet.
      </p>
      {props.canAdd ? (
        <form id="passkey-add-form" class="form passkey-add">
          <div class="field">
            <label for="passkey-name">Name (optional)</label>
            <input id="passkey-name" class="input" type="text" name="name" maxlength={64} placeholder="e.g. Work laptop" autocomplete="off" />
          </div>
          {props.needsPassword ? (
            <div class="field">
              <label for="passkey-password">Your password</label>
              <input id="passkey-password" class="input" type="password" name="password" autocomplete="current-password" required />
              <p class="hint">Asked again before a passkey is added. Your address is told by mail.</p>
            </div>
          ) : (
            <p class="hint">Right after a sign-in with your provider (5 minutes), or sign in with it again. Your address is told by mail.</p>
          )}
          <button type="submit" id="passkey-add" class="button button-primary button-block">
            Add a passkey
          </button>
        </form>
      ) : (
        <p id="passkey-add-unverified" class="hint">
          Confirm your email address first (see above): a passkey is only added to an account whose address is verified.
        </p>
      )}
    </section>
  );
}
