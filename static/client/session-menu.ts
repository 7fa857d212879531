/**
 * The header's account area (src/web/shell.tsx AccountMenu): on the counter page the server does
 * not read the session, so the client asks /api/auth/session after the first paint and shows
 * "Sign in" or the email with its menu. On every page the menu closes with Escape or a click
 * outside (a `<details>` stays open otherwise).
 */
import * as v from 'valibot';
import { parseJson } from './view-schema.ts';

/** The public session view of /api/auth/session (src/auth/rest/session-view.ts), as far as the page uses it. */
const SessionSchema = v.variant('authenticated', [
  v.object({ authenticated: v.literal(false) }),
  v.object({ authenticated: v.literal(true), email: v.nullable(v.string()), user_id: v.optional(v.string()), aal: v.optional(v.string()) }),
]);

export type PageSession = v.InferOutput<typeof SessionSchema>;

function showSession(nav: HTMLElement, session: v.InferOutput<typeof SessionSchema>): void {
  const signIn = nav.querySelector<HTMLElement>('#sign-in-link');
  const menu = nav.querySelector<HTMLElement>('#account-menu');
  const email = nav.querySelector<HTMLElement>('#account-email');
  if (!signIn || !menu || !email) return;
  if (session.authenticated) email.textContent = session.email ?? 'Signed in';
  signIn.hidden = session.authenticated;
  menu.hidden = !session.authenticated;
  nav.dataset['session'] = session.authenticated ? 'signed-in' : 'signed-out';
}

/** Fills an `unknown` header from the server and answers the session; a failure leaves "Sign in" (the safe choice). */
export async function loadSession(): Promise<PageSession | undefined> {
  const nav = document.getElementById('account-nav');
  if (nav?.dataset['session'] !== 'unknown') return undefined;
  let session: PageSession = { authenticated: false };
  try {
    const response = await fetch('/api/auth/session', { headers: { accept: 'application/json' }, credentials: 'same-origin' });
    if (response.ok) session = parseJson(SessionSchema, await response.text()) ?? session;
  } catch {
    // Offline or the auth service is down: the counter still works; offer sign-in.
  }
  showSession(nav, session);
  return session;
}

export function bindMenu(): void {
  const menu = document.getElementById('account-menu');
  if (!(menu instanceof HTMLDetailsElement)) return;
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || !menu.open) return;
    menu.open = false;
    menu.querySelector('summary')?.focus();
  });
  document.addEventListener('click', (event) => {
    if (menu.open && event.target instanceof Node && !menu.contains(event.target)) menu.open = false;
  });
}

/** After the first paint: the page never waits for the session. `onSession` hears it once it is known. */
export function startSessionMenu(onSession: (session: PageSession) => void = () => undefined): void {
  bindMenu();
  requestAnimationFrame(() =>
    setTimeout(() => {
      void loadSession().then((session) => session && onSession(session));
    }, 0),
  );
}
