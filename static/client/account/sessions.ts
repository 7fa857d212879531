/**
 * The account page's session forms, better with script: "sign out this session" and "sign out
 * everywhere" post with fetch and update the list in place instead of reloading. Without script
 * the same forms post and the server redirects back (src/auth/pages/dashboard-page.tsx).
 */
function showStatus(text: string): void {
  const status = document.getElementById('sessions-status');
  if (!status) return;
  status.textContent = text;
  status.hidden = text === '';
}

/** The form's "remove my passkeys too" checkbox, when it has one (src/auth/rest/remove-passkeys-field.ts). */
function removePasskeysChoice(form: HTMLFormElement): { remove_passkeys?: boolean } {
  const box = form.elements.namedItem('remove_passkeys');
  return box instanceof HTMLInputElement && box.checked ? { remove_passkeys: true } : {};
}

/**
 * The JSON route a form stands for (src/auth/rest/session-routes.ts): another session's form is
 * `DELETE /api/auth/sessions/:id`; sign-out and "everywhere" post JSON to their own action.
 */
async function send(form: HTMLFormElement): Promise<boolean> {
  const handle = form.closest<HTMLElement>('li[data-session-handle]')?.dataset['sessionHandle'];
  const other = form.dataset['revoke'] === 'other' && handle !== undefined;
  try {
    const response = await fetch(other ? `/api/auth/sessions/${encodeURIComponent(handle)}` : form.action, {
      method: other ? 'DELETE' : 'POST',
      credentials: 'same-origin',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: other ? null : JSON.stringify(removePasskeysChoice(form)),
    });
    return response.ok;
  } catch {
    return false;
  }
}

/** A revoke that ends this browser's own session leaves the page, like the form would. */
function endsThisSession(form: HTMLFormElement): boolean {
  return form.dataset['revoke'] === 'current' || form.id === 'revoke-all-form';
}

export function bindSessionForms(): void {
  const forms = document.querySelectorAll<HTMLFormElement>('form.session-revoke, #revoke-all-form');
  for (const form of forms) {
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const button = form.querySelector('button');
      if (button) button.disabled = true;
      void send(form).then((ok) => {
        if (button) button.disabled = false;
        if (!ok) return showStatus('That did not work. Reload the page and try again.');
        showStatus('');
        if (endsThisSession(form)) return location.assign('/login');
        form.closest('li')?.remove();
      });
    });
  }
}
