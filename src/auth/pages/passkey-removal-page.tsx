/**
 * /remove-passkeys?token=: the page a passkey-removal link opens (the "passkey added" mail's, and
 * the one a completed reset leads to). It lists the account's passkeys, each with a checkbox, and
 * posts the ticked ones to /api/auth/passkey-removal; opening it changes nothing (mail scanners
 * fetch links). Works without JavaScript.
 */
import type { PasskeySummary } from '../passkeys/manage.ts';
import { Layout } from './layout.tsx';
import { mailErrorText } from './mail-words.ts';

const utc = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

export interface PasskeyRemovalPageProps {
  token: string;
  /** undefined: the link would not work */
  passkeys: PasskeySummary[] | undefined;
  /** reached after a completed reset */
  afterReset: boolean;
  error?: string | undefined;
}

export function PasskeyRemovalPage(props: PasskeyRemovalPageProps) {
  const { passkeys } = props;
  const error = mailErrorText(props.error ?? (passkeys === undefined ? 'not_found' : undefined), undefined, 0);
  return (
    <Layout title="Your passkeys" page="passkey-removal" session={{ state: 'signed-out' }}>
      <div class="page-head">
        <h1>Your passkeys</h1>
        <p class="lede">
          {props.afterReset
            ? 'Your password is set and every session has ended. These passkeys still sign in to your account: remove any you do not know.'
            : 'Each passkey signs in to your account without the password. Remove any you do not know, then reset your password.'}
        </p>
      </div>
      <section class="card auth-narrow" aria-labelledby="passkey-removal-title">
        <div class="card-head">
          <h2 id="passkey-removal-title">Remove passkeys</h2>
        </div>
        {error && (
          <p class="form-error" id="passkey-removal-error" role="alert" data-error={props.error ?? 'not_found'}>
            {error}
          </p>
        )}
        {passkeys !== undefined && passkeys.length === 0 && <p class="hint">This account has no passkey.</p>}
        {passkeys !== undefined && passkeys.length > 0 && (
          <form method="post" action="/api/auth/passkey-removal" id="passkey-removal-form" class="form">
            <input type="hidden" name="token" value={props.token} />
            <ul class="session-list">
              {passkeys.map((passkey) => (
                <li class="session passkey" data-passkey-id={passkey.id}>
                  <label class="checkbox">
                    <input type="checkbox" name="passkey" value={passkey.id} />
                    <span class="passkey-name">{passkey.name}</span>
                    <span class="hint">
                      {' '}
                      added <time datetime={passkey.created_at}>{utc(passkey.created_at)}</time>, last used{' '}
                      {passkey.last_used_at === null ? 'never' : <time datetime={passkey.last_used_at}>{utc(passkey.last_used_at)}</time>}
                    </span>
                  </label>
                </li>
              ))}
            </ul>
            <button type="submit" class="button button-primary button-block">
              Remove the ticked passkeys
            </button>
          </form>
        )}
        <p class="form-links">
          <a href="/login">Sign in</a> · <a href="/forgot-password">Reset your password</a>
        </p>
      </section>
    </Layout>
  );
}
