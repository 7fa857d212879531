/**
 * Passkeys in the browser, with @simplewebauthn/browser over `navigator.credentials` (WebAuthn
 * Level 3): on /login the "Sign in with a passkey" button and the passkey autofill of the email
 * field (`mediation: "conditional"`, §5.1.4.1), started as soon as the page loads; on /dashboard
 * "Add a passkey" (with the password asked again) and rename (remove is a plain form post). The server's JSON routes do every check
 * (src/auth/passkeys/routes.ts); this file only carries options and responses.
 */
import { browserSupportsWebAuthn, browserSupportsWebAuthnAutofill, startAuthentication, startRegistration, WebAuthnError } from '@simplewebauthn/browser';

const JSON_HEADERS = { accept: 'application/json', 'content-type': 'application/json' };

async function call(method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(path, { method, credentials: 'same-origin', headers: JSON_HEADERS, body: body === undefined ? null : JSON.stringify(body) });
}

/** The error message of a JSON error envelope, or a fallback. */
async function errorText(response: Response, fallback: string): Promise<string> {
  try {
    const body = (await response.json()) as { error?: { message?: string } };
    return body.error?.message ?? fallback;
  } catch {
    return fallback;
  }
}

/**
 * A refused sign-in in words a person can act on. The server answers every refusal alike (401
 * `invalid_credentials`, src/auth/passkeys/refusal.ts); by far the likeliest cause is a passkey
 * whose account or whose record here is gone, so the words say so and offer the other ways in.
 */
async function signInRefusalText(response: Response): Promise<string> {
  if (response.status === 401) return 'No account uses this passkey. Sign in with your email and password, or create an account.';
  if (response.status === 429) {
    const seconds = Number(response.headers.get('retry-after') ?? '');
    return Number.isInteger(seconds) && seconds > 0
      ? `Too many attempts. Try again in ${Math.ceil(seconds / 60)} minute${seconds > 60 ? 's' : ''}.`
      : 'Too many attempts. Try again in a few minutes.';
  }
  return errorText(response, 'That did not work. Try again.');
}

function show(id: string, text: string): void {
  const status = document.getElementById(id);
  if (!status) return;
  status.textContent = text;
  status.hidden = text === '';
}

/** A ceremony the user cancelled (or a newer one replaced) is no error to show. */
function cancelled(error: unknown): boolean {
  return (
    (error instanceof WebAuthnError && error.code === 'ERROR_CEREMONY_ABORTED') || (error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError'))
  );
}

/** One sign-in: options, the browser's ceremony (button or autofill), verification, then on to `next`. */
async function signIn(next: string, autofill: boolean): Promise<void> {
  const options = await call('POST', '/api/auth/passkeys/authentication/options', {});
  if (!options.ok) throw new Error(await errorText(options, 'Passkey sign-in is not available right now.'));
  const response = await startAuthentication({ optionsJSON: await options.json(), useBrowserAutofill: autofill });
  const verified = await call('POST', '/api/auth/passkeys/authentication/verify', { response, next });
  if (!verified.ok) throw new Error(await signInRefusalText(verified));
  const body = (await verified.json()) as { next?: string };
  location.assign(body.next ?? '/dashboard');
}

function bindSignIn(): void {
  const button = document.getElementById('passkey-sign-in') as HTMLButtonElement | null;
  if (!button) return;
  const next = button.dataset['next'] ?? '/dashboard';
  const status = 'passkey-sign-in-status';
  if (!browserSupportsWebAuthn()) {
    button.disabled = true;
    return show(status, 'This browser cannot use passkeys.');
  }
  const fail = (error: unknown) => {
    if (!cancelled(error)) show(status, error instanceof Error ? error.message : 'That did not work.');
  };
  button.addEventListener('click', () => {
    show(status, '');
    // Starting this ceremony aborts the pending autofill one (the library's abort service).
    void signIn(next, false).catch(fail);
  });
  void browserSupportsWebAuthnAutofill().then((supported) => {
    if (supported) void signIn(next, true).catch(fail);
  });
}

function passkeyOf(target: EventTarget | null): { item: HTMLLIElement; id: string } | undefined {
  const item = (target as HTMLElement | null)?.closest<HTMLLIElement>('li[data-passkey-id]');
  const id = item?.dataset['passkeyId'];
  return item && id ? { item, id } : undefined;
}

function bindAccount(): void {
  const form = document.getElementById('passkey-add-form') as HTMLFormElement | null;
  if (!form) return;
  const status = 'passkeys-status';
  const add = form.querySelector('button') as HTMLButtonElement;
  if (!browserSupportsWebAuthn()) {
    add.disabled = true;
    return show(status, 'This browser cannot use passkeys.');
  }
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    add.disabled = true;
    show(status, '');
    const name = (form.elements.namedItem('name') as HTMLInputElement).value;
    // Re-authentication (src/auth/passkeys/adding-rules.ts): the password field, when the account has one.
    const passwordField = form.elements.namedItem('password');
    const password = passwordField instanceof HTMLInputElement ? passwordField.value : undefined;
    void (async () => {
      const options = await call('POST', '/api/auth/passkeys/registration/options', password === undefined ? {} : { password });
      if (!options.ok) throw new Error(await errorText(options, 'Adding a passkey is not available right now.'));
      const response = await startRegistration({ optionsJSON: await options.json() });
      const verified = await call('POST', '/api/auth/passkeys/registration/verify', { response, ...(name.trim() ? { name } : {}) });
      if (!verified.ok) throw new Error(await errorText(verified, 'That passkey was not accepted.'));
      location.reload();
    })()
      .catch((error: unknown) => {
        if (!cancelled(error)) show(status, error instanceof Error ? error.message : 'That did not work.');
      })
      .finally(() => {
        add.disabled = false;
      });
  });

  document.getElementById('passkeys')?.addEventListener('click', (event) => {
    const action = (event.target as HTMLElement).closest<HTMLButtonElement>('button[data-passkey-action]')?.dataset['passkeyAction'];
    const passkey = passkeyOf(event.target);
    if (!action || !passkey) return;
    show(status, '');
    // "Remove" is a plain form post of the "Sign-in methods" form (src/auth/pages/sign-in-methods-card.tsx).
    if (action !== 'rename') return;
    const label = passkey.item.querySelector('.passkey-name');
    const name = window.prompt('New name for this passkey', label?.firstChild?.textContent ?? '');
    if (name === null || name.trim() === '') return;
    void call('PATCH', `/api/auth/passkeys/${passkey.id}`, { name }).then(async (response) => {
      if (!response.ok) return show(status, await errorText(response, 'That did not work.'));
      const renamed = (await response.json()) as { name: string };
      if (label?.firstChild) label.firstChild.textContent = renamed.name;
    });
  });
}

export function bindPasskeys(): void {
  bindSignIn();
  bindAccount();
}
